import type { RequestId } from '../../core/protocol/jsonrpc.js';
import type { McpTransportKind } from '../../core/protocol/transport-kind.js';

/**
 * Which seam (or which elicitation outcome) an audit event records:
 * `operator` is a four-eyes ask being queued and the operator's decision.
 * @publicApi
 */
export type McpAuditSeam = 'tool' | 'read' | 'elicitation' | 'operator';

/**
 * One authorization decision or elicitation outcome. `decision` is what the
 * authorizer (or the user) decided; `detail` the reason, prompt or outcome.
 * @publicApi
 */
export interface McpAuditEvent {
  time: string;
  connId: string;
  /** The JSON-RPC id of the request the decision was taken for (unique per connection while in flight). */
  requestId: RequestId;
  /** The W3C trace id of the request's span, when an OpenTelemetry SDK records it. */
  traceId?: string;
  transport: McpTransportKind;
  /** The caller's subject, when the transport authenticated one. */
  principal?: string;
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
}
