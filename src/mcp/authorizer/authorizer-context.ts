import type { McpRequest } from '../server/dispatch/mcp-request.interface.js';
import type { AuthorizerContext } from './authorizer.interface.js';

/** The context an authorizer sees, built from what the transport established (never from the message). */
export function contextOf(request: McpRequest): AuthorizerContext {
  const context: AuthorizerContext = {
    connId: request.connection.id,
    transport: request.transport,
  };
  if (request.principal) context.principal = request.principal;
  return context;
}
