import type { Provider } from '@nestjs/common';
import { McpOperatorApprovals } from './approvals/operator/operator-approvals.service.js';
import {
  MCP_CONNECTION_HOOKS,
  type McpConnectionHooks,
} from './engine/connection/connection-hooks.interface.js';
import { McpListeners } from './revisions/2026-07-28/listen/mcp-listeners.service.js';

/**
 * The engine's connection hooks, in the order a closing connection ends them: the modern
 * era's listen streams first (their final results still go out), then the operator asks (the
 * "connection closed" deny). The module composes them because they live above the engine.
 */
export const CONNECTION_HOOKS_PROVIDER: Provider = {
  provide: MCP_CONNECTION_HOOKS,
  useFactory: (
    listeners: McpListeners,
    operator: McpOperatorApprovals,
  ): readonly McpConnectionHooks[] => [
    {
      notify: (method, params) => listeners.notify(method, params),
      endFor: (connection) => listeners.endFor(connection, 'server shutting down'),
    },
    { endFor: (connection) => operator.abandonFor(connection) },
  ],
  inject: [McpListeners, McpOperatorApprovals],
};
