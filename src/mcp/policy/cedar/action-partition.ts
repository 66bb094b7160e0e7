import type { ActionConstraint, EntityUidJson, PolicyJson } from '@cedar-policy/cedar-wasm/nodejs';
import { ENTITY } from './vocabulary.js';

/**
 * Which actions a policy's action scope can match. Cedar checks the scope before any
 * condition, so a policy left out of an action's set can neither apply to it nor error on it:
 * evaluating only the policies an action can meet decides exactly as the whole set does, and
 * costs what that action's policies cost, not what the whole set does.
 *
 * `groups` maps each known action to its group (`tools/call` or `mcp/read`). Returns the
 * matching actions, or `'all'` for an unconstrained scope.
 */
export function actionsOf(
  constraint: ActionConstraint,
  groups: ReadonlyMap<string, string>,
): Set<string> | 'all' {
  if (constraint.op === 'All') return 'all';
  if (constraint.op === '==') {
    const id = actionId((constraint as { entity?: EntityUidJson }).entity);
    return new Set(id !== undefined && groups.has(id) ? [id] : []);
  }
  const named =
    'entities' in constraint
      ? constraint.entities.map(actionId)
      : [actionId((constraint as { entity: EntityUidJson }).entity)];
  const matched = new Set<string>();
  for (const [action, group] of groups) {
    if (named.includes(action) || named.includes(group)) matched.add(action);
  }
  return matched;
}

/** The same policy with its action scope lifted: its set already holds only matching actions. */
export function withoutActionScope(policy: PolicyJson): PolicyJson {
  return { ...policy, action: { op: 'All' } };
}

/**
 * The policy as visibility sees it (DESIGN §6.3): a permit whose scope matches counts whatever
 * its conditions say; only an unconditional forbid hides. Undefined: leave it out.
 */
export function scopeOnly(policy: PolicyJson): PolicyJson | undefined {
  if (policy.effect === 'permit') return { ...policy, conditions: [] };
  return policy.conditions.length === 0 ? policy : undefined;
}

/**
 * Whether a policy's conditions read a variable: `action` (its set then needs the action's
 * entity) or `context` (its set's decisions then depend on the arguments).
 */
export function readsVar(policy: PolicyJson, name: 'action' | 'context'): boolean {
  return JSON.stringify(policy.conditions).includes(`"Var":"${name}"`);
}

function actionId(uid: EntityUidJson | undefined): string | undefined {
  if (!uid) return undefined;
  const plain = '__entity' in uid ? uid.__entity : uid;
  return plain.type === ENTITY.action ? plain.id : undefined;
}
