import type { McpDefinitionSettings } from '../definitions/definition-settings.interface.js';
import type { Authorizer, AuthorizerSource } from './authorizer.interface.js';

/** The resolved options as the seams and the layers above them read them. */
export interface McpAuthorizationSettings extends McpDefinitionSettings {
  readonly authorizer?: Authorizer;
  readonly authorizerSource: AuthorizerSource;
  readonly readAuthorizer?: Authorizer;
}
