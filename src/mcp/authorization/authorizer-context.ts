import type { McpSeamRequest } from './seam-request.interface.js';
import type { AuthorizerContext, AuthorizerPurpose } from './authorizer.interface.js';

/**
 * The context an authorizer sees, built from what the transport established
 * (never from the message). `purpose` is `'call'` unless the server is only
 * deciding what the caller may see.
 */
export function contextOf(
  request: McpSeamRequest,
  purpose: AuthorizerPurpose = 'call',
): AuthorizerContext {
  const context: AuthorizerContext = {
    connId: request.connection.id,
    transport: request.transport,
    purpose,
  };
  if (request.principal) context.principal = request.principal;
  if (request.era) context.era = request.era;
  return context;
}
