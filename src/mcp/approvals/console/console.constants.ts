/** DI token of the console's resolved settings. */
export const MCP_CONSOLE_SETTINGS = 'McpWarden:console-settings';

/** The operator's sign-in. `__Host-`: Secure, Path=/, no Domain, so no sibling host can set or read it. */
export const SESSION_COOKIE = '__Host-warden-console';

/** The state, nonce and PKCE verifier of a sign-in under way. */
export const LOGIN_COOKIE = '__Host-warden-console-login';

/** How long a sign-in at the issuer may take. */
export const LOGIN_TTL_MS = 10 * 60_000;

/** Asks on one page of the console. */
export const CONSOLE_PAGE_SIZE = 50;

/** Open event streams one operator may hold (tabs, phones); past it a new one is refused. */
export const MAX_STREAMS_PER_OPERATOR = 4;

/** Open event streams on this instance, all operators together. */
export const MAX_STREAMS = 256;

/** Bytes an event stream may have queued unsent before it is closed (the page reconnects). */
export const MAX_STREAM_BACKLOG_BYTES = 256 * 1024;

/** Entries the history keeps (oldest dropped first). */
export const HISTORY_SIZE = 500;

/** Longest reason an operator may give. */
export const MAX_REASON_CHARS = 500;

/** Largest decision body read. */
export const MAX_DECISION_BODY_BYTES = 4096;

/** Console sessions held at once, all operators together; past it a sign-in is refused. */
export const MAX_SESSIONS = 10_000;

/** Console sessions one operator may hold (browsers, devices); a new one ends their oldest. */
export const MAX_SESSIONS_PER_OPERATOR = 8;

/**
 * The longest a session with a refresh token is served before the issuer confirms the
 * operator again: the bound on how long a scope revoked at the issuer goes unnoticed.
 */
export const SESSION_RECHECK_MS = 5 * 60_000;

/** The shortest re-check interval, whatever lifetime the issuer gives its tokens. */
export const MIN_SESSION_RECHECK_MS = 1_000;

/**
 * How long one instance holds the re-check of a session; meanwhile other instances serve the
 * session as it stands (so the bound above grows by this much at most).
 */
export const RECHECK_CLAIM_MS = 10_000;
