/** Why a server→client request ended without a result. */
export type McpOutboundFailure =
  'timeout' | 'connection_closed' | 'cancelled' | 'error_reply' | 'limit';

/** A server→client request (elicitation, sampling, roots) that ended without a result. */
export class McpOutboundRequestError extends Error {
  constructor(
    readonly reason: McpOutboundFailure,
    message: string,
    readonly error?: unknown,
  ) {
    super(message);
    this.name = 'McpOutboundRequestError';
  }
}
