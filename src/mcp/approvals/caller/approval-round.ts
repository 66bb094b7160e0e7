import { APPROVAL_KEY, type McpInputRound } from '../../core/multi-round-trip/input-round.js';

/** How one modern round answers an approval: a verdict now, or a question for the client. */
export type McpRoundApproval =
  | { readonly approved: true }
  | { readonly approved: false; readonly detail: string }
  | { readonly asked: true };

/**
 * The approval of an `ask` in the modern era (docs/protocol-revisions.md, "Approvals over input-required results"): a refused state
 * denies with its own detail; an approval given in an earlier round of this
 * call stands; the client's answer to our question decides; else the
 * question is asked in this round's input-required result.
 */
export function approvalInRound(
  round: McpInputRound,
  question: object,
  verdictOf: (answer: unknown) => { approved: true } | { approved: false; detail: string },
): McpRoundApproval {
  if (round.problem) return { approved: false, detail: round.problem };
  if (round.approved) return { approved: true };
  const answer = round.verifiedAnswerOf(APPROVAL_KEY, 'elicitation/create');
  if (answer !== undefined) {
    const verdict = verdictOf(answer);
    if (verdict.approved) round.approve();
    return verdict;
  }
  round.ask(APPROVAL_KEY, { method: 'elicitation/create', params: question });
  return { asked: true };
}
