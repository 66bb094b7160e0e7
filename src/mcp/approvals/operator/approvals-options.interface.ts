import type { McpApprovalStore } from '../stores/approval-store.interface.js';

/**
 * Four-eyes approvals (`McpModuleOptions.approvals`, docs/operator-approvals.md).
 * @publicApi
 */
export interface McpApprovalsOptions {
  /** The operator console, served with the HTTP transport. */
  console?: McpApprovalsConsoleOptions;
  /** A signed POST announcing each pending operator ask, with one-time approve and deny links. */
  webhook?: McpApprovalsWebhookOptions;
  /** Most pending operator asks kept at once (all callers). Default 10 000. */
  maxPending?: number;
  /**
   * Where operator asks are kept. It wins over cluster mode's Redis store, which wins over
   * the in-memory default; every instance that serves the same asks must share it.
   */
  store?: McpApprovalStore;
  /**
   * How long a handshake-era call waits for an operator before it answers "approval
   * pending" (docs/operator-approvals.md): a tool result naming the console that tells the
   * caller to call again once approved. The ask itself stays pending until its expiry
   * (`elicitationTimeoutMs`), and the same call retried by the same caller after the
   * approval runs the tool once. Default 20 000 ms, well below the official SDK clients'
   * 60 s request timeout, which a client that sends no progress token cannot extend. A
   * value at or above `elicitationTimeoutMs` parks the call until the ask's expiry, for
   * clients whose timeout is longer than that.
   */
  answerWithinMs?: number;
}

/**
 * The operator console (`approvals.console`).
 * @publicApi
 */
export interface McpApprovalsConsoleOptions {
  /** Where the console is served (the app's global prefix applies). Default `/approvals`. */
  path?: string;
  /** The scope an operator's token must hold. Default `mcp:approve`. */
  scope?: string;
  /**
   * The OpenID Connect client operators sign in with (authorization code with
   * PKCE) at `http.auth.issuer`. Without it the console is not served.
   */
  oidc?: {
    clientId: string;
    /** Absent for a public client (PKCE only). */
    clientSecret?: string;
    /** The console's own public origin, e.g. `https://warden.example.com`: the redirect URI is built from it. */
    publicUrl: string;
    /** Scopes requested at sign-in besides `openid`. Default: the console scope. */
    scopes?: string[];
  };
  /** How long an operator's sign-in lasts. Default 8 hours. */
  sessionTtlMs?: number;
}

/**
 * The approvals webhook (`approvals.webhook`).
 * @publicApi
 */
export interface McpApprovalsWebhookOptions {
  /** Where each pending operator ask is POSTed. */
  url: string;
  /** Signs the POST (HMAC-SHA256 header) and the approve/deny links. */
  secret: string;
  /** How long a link is valid. Default 10 minutes (never past the ask's expiry). */
  linkTtlMs?: number;
  /**
   * The app's public origin the links are built on, e.g. `https://warden.example.com`
   * (the global prefix and the console path are appended). Default: `console.oidc.publicUrl`.
   */
  publicUrl?: string;
}
