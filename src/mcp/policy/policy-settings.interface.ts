import type { McpAuthorizationSettings } from '../authorization/authorization-settings.interface.js';
import type { McpPolicyConfig } from './policy-options.interface.js';

/** The resolved options as the policy layer reads them. */
export interface McpPolicySettings extends McpAuthorizationSettings {
  readonly policy?: McpPolicyConfig;
}
