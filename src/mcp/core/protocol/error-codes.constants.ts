/**
 * JSON-RPC and MCP error codes used on the wire. Only the dispatcher and the
 * transports turn errors into these codes; core code throws typed errors.
 * @publicApi
 */
export const JsonRpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Modern era: an HTTP header disagrees with the body, or a required one is missing. */
  HeaderMismatch: -32020,
  /** Modern era: the request needs a client capability it did not declare. */
  MissingRequiredClientCapability: -32021,
  /** Modern era: the request names a protocol version the server does not serve. */
  UnsupportedProtocolVersion: -32022,
  /** 2025-era "resource not found" (the modern era uses -32602). */
  ResourceNotFound: -32002,
  /** 2025-era `URLElicitationRequiredError`: the user must finish URL elicitations first. */
  UrlElicitationRequired: -32042,
  /** A read seam refused the request: the message is `authorization_required: <method>`. */
  AuthorizationRequired: -31403,
  /** A connection has too many requests in flight (`limits.maxInFlightPerConnection`). */
  TooManyRequests: -31429,
  /**
   * Cluster mode: the answer to a request was lost between instances (the one running it
   * stopped, or the shared store dropped while it ran). It may have run: retry only what is safe
   * to repeat, or what carries an idempotency key.
   */
  OutcomeUnknown: -31504,
} as const;

export type JsonRpcErrorCodeValue = (typeof JsonRpcErrorCode)[keyof typeof JsonRpcErrorCode];
