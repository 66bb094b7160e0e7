import { AUDIT_UNAVAILABLE } from '../../authorization/audit/audit-reasons.js';

/**
 * How an approval ended: approved, or not, with the deny's detail. A call not approved is denied
 * as the ask it was, unless `decision` says the server denied it outright.
 */
export type McpApprovalVerdict =
  { approved: true } | { approved: false; detail: string; decision?: 'deny' };

export const APPROVED: McpApprovalVerdict = Object.freeze({ approved: true });

/**
 * An approval withdrawn because its record could not be kept (`audit.failClosed`): the call is
 * denied as the seam denies one whose own record could not be kept, a deny, not an ask.
 */
const AUDIT_WITHDRAWN: McpApprovalVerdict = Object.freeze({
  approved: false,
  detail: AUDIT_UNAVAILABLE,
  decision: 'deny',
});

/** `verdict` once its record is settled: an approval whose record was not kept is withdrawn. */
export function keptVerdict(verdict: McpApprovalVerdict, kept: boolean): McpApprovalVerdict {
  return verdict.approved && !kept ? AUDIT_WITHDRAWN : verdict;
}

/**
 * The verdict of an answer to the approval question (an `elicitation/create` result, or the
 * modern era's verified input response): only `accept` with `approve: true` approves; every
 * other answer is a deny that says how it ended.
 */
export function approvalVerdictOf(answer: unknown): McpApprovalVerdict {
  const { action, content } = answer as { action?: unknown; content?: { approve?: unknown } };
  if (action === 'accept' && content?.approve === true) return APPROVED;
  const detail =
    action === 'decline'
      ? 'user declined'
      : action === 'cancel'
        ? 'user cancelled'
        : action === 'accept'
          ? 'user did not approve'
          : 'elicitation failed';
  return { approved: false, detail };
}
