import type { Annotations, Response } from '@cedar-policy/cedar-wasm/nodejs';
import type { AuthorizerDecision } from '../../authorization/authorizer.interface.js';
import { fillPrompt } from './prompt-template.js';

/** Detail of the deny when no permit is satisfied. */
export const NOT_PERMITTED = 'not_permitted';

/** A decision and what made it. */
export interface CedarVerdict {
  readonly decision: AuthorizerDecision;
  /** The determining policies' ids. */
  readonly policies: readonly string[];
  /** How many policies failed to evaluate (they did not apply, as Cedar specifies). */
  readonly errors: number;
}

/**
 * DESIGN §6.2: a satisfied forbid denies with its `@reason` (else its id); no satisfied
 * permit denies `not_permitted`; a satisfied `@ask` permit asks (an `@approver("operator")` ask
 * first); any other satisfied permit allows. Deny beats ask beats allow. The prompt's
 * placeholders read the arguments and the resource's tags.
 */
export function verdictOf(
  response: Response,
  annotations: ReadonlyMap<string, Annotations>,
  input: Readonly<Record<string, unknown>>,
  tags: Readonly<Record<string, unknown>>,
): CedarVerdict {
  const errors = response.diagnostics.errors.length;
  const determining = [...response.diagnostics.reason].sort();
  if (response.decision === 'deny') {
    if (determining.length === 0) {
      return { decision: { kind: 'deny', reason: NOT_PERMITTED }, policies: [], errors };
    }
    const first = determining[0];
    const reason = annotations.get(first)?.reason ?? first;
    return { decision: { kind: 'deny', reason }, policies: determining, errors };
  }
  const asks = determining.filter((id) => annotations.get(id)?.ask !== undefined);
  if (asks.length === 0) return { decision: { kind: 'allow' }, policies: determining, errors };
  const operator = asks.filter((id) => annotations.get(id)?.approver === 'operator');
  const chosen = operator[0] ?? asks[0];
  const prompt = fillPrompt(annotations.get(chosen)!.ask, input, tags);
  const decision: AuthorizerDecision =
    operator.length > 0 ? { kind: 'ask', prompt, approver: 'operator' } : { kind: 'ask', prompt };
  return { decision, policies: [chosen, ...asks.filter((id) => id !== chosen)], errors };
}
