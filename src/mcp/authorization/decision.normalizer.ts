import type { AuthorizerDecision } from './authorizer.interface.js';

/** The allow decision, shared (decisions are read, never mutated). */
export const ALLOW: AuthorizerDecision = Object.freeze({ kind: 'allow' });

/** Detail of the deny given when an authorizer throws (its error text never reaches the client). */
export const AUTHORIZER_FAILED = 'authorizer_failed';
/** Detail of the deny given when an authorizer returns something that is not a decision. */
export const INVALID_DECISION = 'invalid_decision';

/* An authorizer written in plain JS may return anything; only a well-formed allow allows. */
export function normalizeDecision(decision: unknown): AuthorizerDecision {
  const value = decision as Partial<{
    kind: string;
    prompt: unknown;
    reason: unknown;
    approver: unknown;
  }> | null;
  if (value?.kind === 'allow') return ALLOW;
  if (value?.kind === 'ask') {
    const prompt = String(value.prompt ?? '');
    // Only the exact string routes to an operator; anything else is the caller's own approval.
    return value.approver === 'operator'
      ? { kind: 'ask', prompt, approver: 'operator' }
      : { kind: 'ask', prompt };
  }
  if (value?.kind === 'deny') return { kind: 'deny', reason: String(value.reason ?? 'denied') };
  return { kind: 'deny', reason: INVALID_DECISION };
}
