import type { Provider } from '@nestjs/common';
import { MCP_SEAM_POLICY } from '../authorization/seam-policy.interface.js';
import { MCP_OPTIONS } from '../core/options/options.constants.js';
import { McpRegistry } from '../definitions/mcp-registry.service.js';
import { loadCedar } from './cedar/cedar.loader.js';
import { McpPolicy } from './mcp-policy.service.js';
import type { McpPolicySettings } from './policy-settings.interface.js';

/**
 * `McpPolicy` when the app sets `policy`, else null; and the seams' port, which it fills.
 * Cedar is loaded here, and only here: an app without a policy never loads it.
 */
export const POLICY_PROVIDERS: Provider[] = [
  {
    provide: McpPolicy,
    inject: [MCP_OPTIONS, McpRegistry],
    useFactory: async (options: McpPolicySettings, registry: McpRegistry) =>
      options.policy
        ? new McpPolicy(await loadCedar(), options.policy, options.name, registry)
        : null,
  },
  { provide: MCP_SEAM_POLICY, useExisting: McpPolicy },
];
