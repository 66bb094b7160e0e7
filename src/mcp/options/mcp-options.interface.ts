import type {
  McpAuthenticate,
  McpBearerAuthOptions,
} from '../authentication/auth-options.interface.js';
import type { McpApprovalsOptions } from '../approvals/operator/approvals-options.interface.js';
import type { McpTasksOptions } from '../revisions/2026-07-28/tasks/tasks-options.interface.js';
import type { McpIcon } from '../definitions/metadata-fields/display.interface.js';
import type { McpLimits } from '../core/limits/mcp-limits.interface.js';
import type { McpNonceStore } from '../core/stores/nonce-store.interface.js';
import type { Authorizer, AuthorizerSource } from '../authorization/authorizer.interface.js';
import type { McpPolicyConfig } from '../policy/policy-options.interface.js';
import type { McpAuditOptions } from '../audit/audit-options.interface.js';
import type { McpTransportKind } from '../core/protocol/transport-kind.js';

/**
 * HTTP transport settings (used when `transport` is `'http'`).
 * @publicApi
 */
export interface McpHttpOptions {
  /** Streamable HTTP endpoint path. Default `/mcp`. */
  path?: string;
  /**
   * Where the 2024-11-05 HTTP+SSE pair is served: `<ssePairPath>/sse` and
   * `<ssePairPath>/messages`. Default: the root (`/sse`, `/messages`). An app
   * with several HTTP servers gives each its own (docs/several-servers.md).
   */
  ssePairPath?: string;
  /** Origins allowed besides the loopback ones. */
  allowedOrigins?: string[];
  /** Host header values allowed besides the loopback ones. */
  allowedHosts?: string[];
  /** Interval of keep-alive comments on idle SSE streams. Default 15 s. */
  keepAliveMs?: number;
  /** `retry:` hint sent on SSE streams, in ms. Default 1 000. */
  retryMs?: number;
  /**
   * Serve the MCP routes ahead of the HTTP adapter, at the paths Nest registered for them
   * (global prefix included). Express costs about half of Node's own request rate; Fastify
   * less. `'auto'` (the default) takes this path only when nothing would be skipped: on
   * Express, no app middleware and no CORS in front of the MCP routes; on Fastify, from a
   * route's second request, while the only hooks Fastify runs for it are Nest's adapter's and
   * middie's and those do nothing. `true` takes it anyway, skipping the app's middleware, CORS
   * and Fastify hooks on those routes (the endpoints' own Host/Origin checks and authentication
   * still apply). `false` never does. docs/http.md, "The fast path".
   */
  fastPath?: boolean | 'auto';
  /** The built-in OAuth 2.1 resource server (bearer JWTs). */
  auth?: McpBearerAuthOptions;
  /** Custom authentication; tried before `auth` when both are set. */
  authenticate?: McpAuthenticate;
}

/**
 * Options of `McpModule.forRoot()` / `forRootAsync()`.
 * @publicApi
 */
export interface McpModuleOptions {
  /** Server name announced in `initialize`. */
  name: string;
  /** Server version announced in `initialize`. */
  version: string;
  /** A human-readable server name for UIs, announced in `serverInfo`. */
  title?: string;
  /** What the server is for, announced in `serverInfo`. */
  description?: string;
  /** Icons a client may show for the server (`src`: https:, http: or a base64 data: image). */
  icons?: McpIcon[];
  /** The server's home page (https: or http:), announced in `serverInfo`. */
  websiteUrl?: string;
  /** Optional instructions for the model, announced in `initialize`. */
  instructions?: string;
  /** The transport that will carry clients, declared at start. Default `'unknown'`. */
  transport?: McpTransportKind;
  /** The tool seam (`tools/call`). */
  authorizer?: Authorizer;
  /** Where `authorizer` came from. Default `'default'` (fails the network boot guard). */
  authorizerSource?: AuthorizerSource;
  /** The read seam (list, read, get, subscribe and completion methods). */
  readAuthorizer?: Authorizer;
  /**
   * Policy as code for both seams, in place of `authorizer` and `readAuthorizer` (giving it
   * with either fails boot): `McpPolicies.cedar({...})` (docs/policy.md).
   */
  policy?: McpPolicyConfig;
  /**
   * Durable, chained and signed audit records (docs/audit.md): sinks, `arguments`,
   * `failClosed`, `signing`. Without it, events are only streamed on `McpWarden.audit$`.
   */
  audit?: McpAuditOptions;
  /**
   * How long a parked call waits for the client's approval, how long a
   * modern `requestState` stays valid, and how long an operator ask lives
   * (docs/operator-approvals.md). Default 60 000 ms.
   */
  elicitationTimeoutMs?: number;
  /**
   * Secret that seals the modern era's `requestState` (AES-256-GCM under a key
   * derived from it). Instances that share it accept each other's states.
   * Default: a random key per process.
   */
  stateSecret?: string;
  /** Remembers the single-use nonces of `requestState`. Default: in memory, bounded. */
  nonceStore?: McpNonceStore;
  /**
   * Cluster mode: instances that share this Redis behave as one server behind
   * any load balancer (sessions, replay, notifications, approvals, nonces and
   * session quotas are shared). Absent: one process, in memory, and the Redis
   * client is never loaded.
   */
  cluster?: McpClusterOptions;
  /**
   * `ttlMs` announced on the modern era's cacheable results (discover, the
   * lists, `resources/read`). Default 0: clients revalidate every time, so a
   * list change is never hidden by a cache.
   */
  cacheTtlMs?: number;
  /**
   * Network boot guard: an HTTP transport refuses to boot unless both seams are
   * configured, and refuses a non-loopback address without authentication. Armed
   * in every environment (`NODE_ENV` plays no part); only `false` disarms it, and
   * then every boot logs what is unguarded.
   */
  requireAuthorization?: boolean;
  /** HTTP transport settings. */
  http?: McpHttpOptions;
  /** Four-eyes approvals: asks an operator, not the caller, must answer. */
  approvals?: McpApprovalsOptions;
  /** Durable tasks for tools marked `task` (docs/tasks.md): TTL, poll interval, store. */
  tasks?: McpTasksOptions;
  /** Items per page of every list method. Default 100. */
  pageSize?: number;
  /** Every bound the server enforces (bodies, lines, sessions, in-flight and pending requests, timeouts). */
  limits?: McpLimits;
}

/**
 * Cluster mode (`McpModuleOptions.cluster`).
 * @publicApi
 */
export interface McpClusterOptions {
  /** `redis://` or `rediss://` URL of the Redis every instance shares. */
  redisUrl: string;
  /** Prefix of every key and channel, so several servers can share one Redis. Default `mcp-warden:`. */
  keyPrefix?: string;
}
