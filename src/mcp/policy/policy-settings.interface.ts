import type { McpAuditSettings } from '../audit/audit-options.interface.js';
import type { McpPolicyConfig } from './policy-options.interface.js';

/** The resolved options as the policy layer reads them. */
export interface McpPolicySettings extends McpAuditSettings {
  readonly policy?: McpPolicyConfig;
}
