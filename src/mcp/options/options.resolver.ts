import { buildServerInfo } from '../definitions/metadata-fields/server-info.factory.js';
import { resolveLimits } from '../core/limits/default-limits.js';
import type { McpModuleOptions } from './mcp-options.interface.js';
import { resolveTasksOptions } from '../revisions/2026-07-28/tasks/tasks-options.resolver.js';
import { McpPolicyError } from '../policy/policy.errors.js';
import type {
  McpResolvedOptions,
  ResolvedApprovalsOptions,
  ResolvedHttpOptions,
} from './resolved-options.interface.js';

const DEFAULT_ELICITATION_TIMEOUT_MS = 60_000;
const DEFAULT_PAGE_SIZE = 100;
const DEFAULT_KEEP_ALIVE_MS = 15_000;
const DEFAULT_RETRY_MS = 1_000;
const DEFAULT_APPROVER_SCOPE = 'mcp:approve';
const DEFAULT_CONSOLE_PATH = '/approvals';
const DEFAULT_MAX_PENDING_APPROVALS = 10_000;
/* Well below the official SDK clients' 60 s request timeout (src/mcp/operator/approvals-options.spec.ts). */
const DEFAULT_ANSWER_WITHIN_MS = 20_000;

/** Where a server stands among the app's servers, as far as its defaults care. */
export interface McpServerPlacement {
  /** The app has more than one server: cluster keys then default to one prefix per server. */
  readonly several?: boolean;
}

/** Applies every default, once. Invalid numbers fall back to their default rather than failing open. */
export function resolveMcpOptions(
  options: McpModuleOptions,
  placement: McpServerPlacement = {},
): McpResolvedOptions {
  if (options.policy && (options.authorizer || options.readAuthorizer)) {
    throw new McpPolicyError(
      'MCP server refuses to boot: `policy` decides both seams, so it cannot be given with ' +
        '`authorizer` or `readAuthorizer` (two deciders would make neither the source of truth)',
    );
  }
  if (options.audit?.failClosed && !options.audit.sinks?.some((sink) => sink.keeps !== false)) {
    throw new Error(
      'MCP server refuses to boot: `audit.failClosed` denies every call whose record is not ' +
        'kept, and no `audit.sinks` keep any (a file or a database does; OpenTelemetry logs ' +
        'are handed to an exporter, which says nothing of what it kept)',
    );
  }
  const resolved: McpResolvedOptions = {
    name: options.name,
    version: options.version,
    serverInfo: buildServerInfo(options),
    transport: options.transport ?? 'unknown',
    authorizer: options.authorizer,
    authorizerSource: options.authorizerSource ?? 'default',
    readAuthorizer: options.readAuthorizer,
    policy: options.policy,
    audit: options.audit,
    elicitationTimeoutMs: positive(options.elicitationTimeoutMs, DEFAULT_ELICITATION_TIMEOUT_MS),
    stateSecret: options.stateSecret || undefined,
    nonceStore: options.nonceStore,
    cluster: options.cluster?.redisUrl
      ? {
          redisUrl: options.cluster.redisUrl,
          // Several servers in one app never share keys, whatever Redis they share.
          keyPrefix:
            options.cluster.keyPrefix ??
            (placement.several ? `mcp-warden:${options.name}:` : 'mcp-warden:'),
        }
      : undefined,
    cacheTtlMs:
      Number.isInteger(options.cacheTtlMs) && options.cacheTtlMs! >= 0 ? options.cacheTtlMs! : 0,
    // Armed in every environment: an embedder who forgets the option fails closed, whatever
    // NODE_ENV says (jest sets it to test; deployments leave it unset or development by mistake).
    requireAuthorization: options.requireAuthorization !== false,
    pageSize: Number.isInteger(options.pageSize)
      ? positive(options.pageSize, DEFAULT_PAGE_SIZE)
      : DEFAULT_PAGE_SIZE,
    limits: resolveLimits(options.limits),
    http: resolveHttp(options),
    approvals: resolveApprovals(options),
    tasks: resolveTasksOptions(options.tasks),
  };
  return options.instructions === undefined
    ? resolved
    : { ...resolved, instructions: options.instructions };
}

function resolveHttp(options: McpModuleOptions): ResolvedHttpOptions {
  const http = options.http ?? {};
  const resolved: ResolvedHttpOptions = {
    path: '/' + (http.path ?? '/mcp').replace(/^\/+|\/+$/g, ''),
    allowedOrigins: http.allowedOrigins ?? [],
    allowedHosts: http.allowedHosts ?? [],
    keepAliveMs: positive(http.keepAliveMs, DEFAULT_KEEP_ALIVE_MS),
    retryMs: positive(http.retryMs, DEFAULT_RETRY_MS),
    fastPath: http.fastPath === true || http.fastPath === false ? http.fastPath : 'auto',
    ssePairPath: trimPath(http.ssePairPath ?? ''),
  };
  return { ...resolved, auth: http.auth, authenticate: http.authenticate };
}

function resolveApprovals(options: McpModuleOptions): ResolvedApprovalsOptions {
  const approvals = options.approvals ?? {};
  const resolved: ResolvedApprovalsOptions = {
    // An empty scope would make every principal an approver: fall back instead of failing open.
    scope: approvals.console?.scope?.trim() || DEFAULT_APPROVER_SCOPE,
    path: '/' + (approvals.console?.path ?? DEFAULT_CONSOLE_PATH).replace(/^\/+|\/+$/g, ''),
    maxPending: Number.isInteger(approvals.maxPending)
      ? positive(approvals.maxPending, DEFAULT_MAX_PENDING_APPROVALS)
      : DEFAULT_MAX_PENDING_APPROVALS,
    answerWithinMs: positive(approvals.answerWithinMs, DEFAULT_ANSWER_WITHIN_MS),
  };
  return {
    ...resolved,
    ...(approvals.console ? { console: approvals.console } : {}),
    ...(approvals.webhook ? { webhook: approvals.webhook } : {}),
    ...(approvals.store ? { store: approvals.store } : {}),
  };
}

/* One leading slash, none trailing; the root is the empty path. */
function trimPath(path: string): string {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed ? `/${trimmed}` : '';
}

function positive(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}
