import type { RequestId } from '../../core/protocol/jsonrpc.js';
import type { McpTransportKind } from '../../core/protocol/transport-kind.js';

/**
 * Which seam (or which elicitation outcome) an audit event records:
 * `operator` is a four-eyes ask being queued and the operator's decision.
 * @publicApi
 */
export type McpAuditSeam = 'tool' | 'read' | 'elicitation' | 'operator';

/**
 * What a record is: a seam's or an approver's `decision`, the `outcome` of a call that ran, a
 * token `exchange` a handler made as its caller, or (in a sink only) a signed `checkpoint` of
 * the chain (docs/audit.md).
 * @publicApi
 */
export type McpAuditKind = 'decision' | 'outcome' | 'exchange' | 'checkpoint';

/**
 * How a call that ran ended: its result, an `isError` result, an exception, a cancellation, or
 * `limits.toolTimeoutMs`.
 * @publicApi
 */
export type McpAuditOutcome = 'ok' | 'isError' | 'threw' | 'cancelled' | 'timeout';

/**
 * One authorization decision, approval step or call outcome. `decision` is what the
 * authorizer (or the approver) decided; `detail` the reason, prompt or outcome.
 * @publicApi
 */
export interface McpAuditEvent {
  /** Unique per event (a UUID). */
  id: string;
  kind: McpAuditKind;
  time: string;
  connId: string;
  /** The JSON-RPC id of the request the decision was taken for (unique per connection while in flight). */
  requestId: RequestId;
  /** The W3C trace id of the request's span, when an OpenTelemetry SDK records it. */
  traceId?: string;
  transport: McpTransportKind;
  /** The caller's subject, when the transport authenticated one. */
  principal?: string;
  /** The verified token's issuer and client id, when there was one. */
  issuer?: string;
  clientId?: string;
  /** The request's protocol era (`legacy` or `modern`). */
  era?: string;
  seam: McpAuditSeam;
  /** The tool name (tool seam, elicitation) or the method (read seam). */
  name: string;
  decision: 'allow' | 'ask' | 'deny';
  detail?: string;
  /** The operator who decided (seam `operator`, docs/operator-approvals.md). */
  operator?: string;
  /** With a `policy`: the ids of the policies that determined the decision (docs/policy.md). */
  policies?: readonly string[];
  /** With a `policy`: the digest of the policy set that decided. */
  policyVersion?: string;
  /** With a shadow policy set: what it would have decided, never enforced. */
  shadow?: { decision: 'allow' | 'ask' | 'deny'; policies: readonly string[] };
  /** Tool seam: SHA-256 (hex) of the arguments in RFC 8785 canonical JSON. */
  argumentsDigest?: string;
  /** Tool seam, only with `audit.arguments: 'full'`: the arguments themselves. */
  arguments?: unknown;
  /** An approval step's or an outcome's decision: the `id` of the tool seam's event. */
  of?: string;
  /** `kind: 'exchange'`: the audience and scope a token was asked for (docs/token-exchange.md). */
  audience?: string;
  scope?: string;
  /** `kind: 'outcome'`: how the call ended, and how long it ran. */
  outcome?: McpAuditOutcome;
  durationMs?: number;
}
