import { samePrincipal } from '../../authentication/principal-identity.js';
import type { McpPolicyTrace, TracedDecision } from '../../authorization/seam-policy.interface.js';
import type { McpRequest } from '../../engine/dispatch/mcp-request.interface.js';
import type { McpOperatorAskRecord } from './operator-ask.interface.js';

/* What an operator ask reads of the call it holds back (operator-approvals.service.ts). */

const MAX_POLICY_IDS = 8;
const MAX_POLICY_ID_CHARS = 200;

export function progressTokenOf(request: McpRequest): string | number | undefined {
  const token = (request.params as { _meta?: { progressToken?: unknown } })._meta?.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

/* The caller that made the ask (issuer and subject); an anonymous ask, by an anonymous caller. */
export function sameCaller(record: McpOperatorAskRecord, request: McpRequest): boolean {
  const { principal } = request;
  if (!principal) return record.caller.subject === undefined;
  return samePrincipal(record.caller, principal);
}

/* The seam's policy trace, when a policy asked (an operator sees which rule sent the ask). */
export function traceOf(request: McpRequest): McpPolicyTrace | undefined {
  return (request.toolSeam?.decision as TracedDecision | undefined)?.trace;
}

/* Bounded, like every field of an ask: a few ids, each cut. */
export function policiesOf(request: McpRequest): { policies?: readonly string[] } {
  const policies = traceOf(request)?.policies;
  if (!policies || policies.length === 0) return {};
  return {
    policies: policies.slice(0, MAX_POLICY_IDS).map((id) => id.slice(0, MAX_POLICY_ID_CHARS)),
  };
}
