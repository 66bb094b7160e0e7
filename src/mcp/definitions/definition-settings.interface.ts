import type { McpAuthenticationSettings } from '../authentication/authentication-settings.interface.js';
import type { McpServerInfo } from './metadata-fields/server-info.factory.js';

/** The resolved options as definitions and the layers above them read them. */
export interface McpDefinitionSettings extends McpAuthenticationSettings {
  /** What `initialize` announces: name, version and the optional display fields, checked once. */
  readonly serverInfo: McpServerInfo;
}
