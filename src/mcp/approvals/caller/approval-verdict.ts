/** How an approval ended: approved, or not, with the deny's detail. */
export type McpApprovalVerdict = { approved: true } | { approved: false; detail: string };

export const APPROVED: McpApprovalVerdict = Object.freeze({ approved: true });

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
