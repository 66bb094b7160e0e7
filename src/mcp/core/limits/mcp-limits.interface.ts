/**
 * Every bound the server enforces, in one place. Each has a safe default;
 * raise one only with a reason (they are what keeps one client's bad input,
 * or a slow reader, from costing other clients anything).
 * @publicApi
 */
export interface McpLimits {
  /** Largest HTTP request body, in bytes (413 above). Default 4 MiB. */
  maxBodyBytes?: number;
  /** Longest stdio line, in bytes (-32600 above, never buffered whole). Default 4 MiB. */
  maxLineBytes?: number;
  /** Live HTTP sessions per transport (503 above). Default 1 000. */
  maxSessions?: number;
  /** An HTTP session with no request and no open stream for this long ends. Default 30 min. */
  sessionIdleMs?: number;
  /** Requests one connection may have in flight (parked calls included). Default 256. */
  maxInFlightPerConnection?: number;
  /** Server→client requests (approvals, elicit, sample, roots) pending per connection. Default 64. */
  maxPendingPerConnection?: number;
  /** Server→client requests pending over all connections. Default 10 000. */
  maxPendingTotal?: number;
  /** SSE events kept per HTTP session for `Last-Event-ID` replay. Default 256. */
  eventBufferSize?: number;
  /** Unflushed writes one SSE stream may hold before it is dropped. Default 1 000. */
  maxQueuedEvents?: number;
  /** How long a tool may run before its call ends with `isError` and its signal aborts. Default 60 s. */
  toolTimeoutMs?: number;
  /** How long an authorizer may take before it counts as a deny. Default 5 s. */
  authorizerTimeoutMs?: number;
  /*
   * Quotas that protect other users are kept per principal (per client address
   * when anonymous), not only globally: one caller cannot fill a shared table.
   */
  /**
   * Tasks (docs/tasks.md) kept at once, running or finished until their TTL, over all callers
   * (-31429 past it). Default 10 000.
   */
  maxTasks?: number;
  /** The share of `maxTasks` one principal (one address when anonymous) may hold. Default 256. */
  maxTasksPerPrincipal?: number;
  /** Live HTTP sessions one principal may hold (429 above). Default 100. */
  maxSessionsPerPrincipal?: number;
  /** Calls awaiting approval one principal may have, over all its connections. Default 256. */
  maxPendingPerPrincipal?: number;
  /**
   * Requests per second one principal may send over HTTP (a token bucket
   * holding two seconds' worth; 429 and -31429 with a retry hint above). Default 1 000.
   */
  callsPerSecondPerPrincipal?: number;
  /**
   * Modern-era `requestState` nonces remembered until they expire, over all
   * callers (in memory, or in Redis in cluster mode); past it new states are
   * refused (-31429), never old ones forgotten. The webhook's notices and
   * links are kept apart, under a bound of the same size, so callers cannot
   * fill it. Default 100 000.
   */
  maxRequestStates?: number;
  /**
   * The share of `maxRequestStates` one caller may hold: each retry that
   * presents a `requestState` keeps its nonce until the state expires, so a
   * caller retrying fast would otherwise fill the store for everyone
   * (-31429 past it, for that caller only). Default 1 000.
   */
  maxRequestStatesPerPrincipal?: number;
  /**
   * Bytes buffered by HTTP request bodies still arriving, over all requests
   * (503 past it), so many slow uploads cannot hold what one may. Default 64 MiB.
   */
  maxBufferedBodyBytes?: number;
  /** How long an HTTP request body may take to arrive (408 past it). Default 30 s. */
  bodyTimeoutMs?: number;
  /**
   * How long the request head may take to arrive: the HTTP server's
   * `headersTimeout` is lowered to it when higher. Default 10 s.
   */
  headersTimeoutMs?: number;
  /**
   * How long a whole request (head and body) may take to arrive on any route
   * of the HTTP server: its `requestTimeout` (Node's default is 5 min;
   * Fastify's none) is lowered to it, never below `headersTimeoutMs` plus
   * `bodyTimeoutMs`, so an MCP body's own 408 comes first. Node checks it
   * every 30 s. Default 60 s.
   */
  requestTimeoutMs?: number;
  /**
   * Object keys and array items in one call's arguments, over all levels
   * (an `isError` result past it, before any validation runs). Default 10 000.
   */
  maxArgumentKeys?: number;
  /** Nesting depth of one call's arguments. Default 32. */
  maxArgumentDepth?: number;
  /** Items in any one array of a call's arguments. Default 10 000. */
  maxArgumentArrayLength?: number;
  /**
   * Size of a tool's result, as the JSON it is sent as; past it the call
   * answers an `isError` result that says so. Default 16 MiB.
   */
  maxResultBytes?: number;
  /** Characters of an ask prompt sent to the client; longer ones are cut, marked `…`. Default 1 000. */
  maxPromptChars?: number;
  /** Open modern `subscriptions/listen` streams one caller may hold (-31429 past it). Default 32. */
  maxListensPerPrincipal?: number;
}

/**
 * The limits with every default applied.
 * @publicApi
 */
export type ResolvedMcpLimits = Required<McpLimits>;
