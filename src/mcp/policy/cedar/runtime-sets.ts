import type { Annotations, PolicyJson, TemplateLink } from '@cedar-policy/cedar-wasm/nodejs';
import type { CedarWasm } from './cedar.loader.js';
import { actionsOf, readsVar, scopeOnly, withoutActionScope } from './action-partition.js';
import type { CompiledSet } from './policy-set.compiler.js';

/** The preparsed policy sets one action is decided with. */
export interface ActionSets {
  /** The set that decides a call. */
  readonly decide: string;
  /** The scope-only set that decides whether the caller may see a tool (DESIGN §6.3). */
  readonly visible: string;
  /** Whether a policy reads `action` in a condition: its entity then goes with the request. */
  readonly actionEntity: boolean;
  /**
   * Whether the decision depends on `context`: a policy reads it, or an `@ask` prompt fills in
   * an argument. When none does, the context is left out of the request and of the cache key,
   * so calls that differ only in their arguments share one decision.
   */
  readonly context: boolean;
  /** False for the set of actions the schema does not have. */
  readonly known: boolean;
}

/** A compiled set, preparsed in Cedar per action: what a decision reads. */
export interface RuntimeSets {
  readonly version: string;
  readonly annotations: ReadonlyMap<string, Annotations>;
  /** The sets of a known action; undefined for one the schema does not have. */
  forAction(action: string): ActionSets | undefined;
  /** The sets of an action the schema does not have: only unscoped policies can meet it. */
  readonly unknown: ActionSets;
}

/**
 * Preparses `set` in Cedar, one set per known action (`groups`: action → its group) under
 * `slot`, plus one for unknown actions. Preparsed sets live inside the engine; a slot is
 * reused by every other reload, which is safe because a decision is one synchronous call
 * and the swap to new sets happens only once all of them are ready.
 */
export async function prepareRuntimeSets(
  cedar: CedarWasm,
  set: CompiledSet,
  groups: ReadonlyMap<string, string>,
  slot: string,
  pause: () => Promise<void> = async () => {},
): Promise<RuntimeSets> {
  const members = new Map<string, Set<string> | 'all'>();
  for (const policy of set.policies.values())
    members.set(policy.id, actionsOf(policy.json.action, groups));
  const annotations = new Map<string, Annotations>();
  for (const policy of set.policies.values())
    annotations.set(policy.id, policy.json.annotations ?? {});
  for (const link of set.links) annotations.set(link.newId, annotations.get(link.templateId) ?? {});

  const preparse = (
    id: string,
    pick: (policy: PolicyJson) => PolicyJson | undefined,
    action?: string,
  ) => {
    const staticPolicies: Record<string, PolicyJson> = {};
    const templates: Record<string, PolicyJson> = {};
    const reads = { action: false, context: false };
    for (const policy of set.policies.values()) {
      const matches = members.get(policy.id)!;
      if (matches !== 'all' && (action === undefined || !matches.has(action))) continue;
      const picked = pick(action === undefined ? policy.json : withoutActionScope(policy.json));
      if (!picked) continue;
      reads.action ||= readsVar(picked, 'action');
      reads.context ||=
        readsVar(picked, 'context') || /\{input\./.test(picked.annotations?.ask ?? '');
      (policy.template ? templates : staticPolicies)[policy.id] = picked;
    }
    const templateLinks: TemplateLink[] = set.links.filter((link) => templates[link.templateId]);
    const answer = cedar.preparsePolicySet(id, { staticPolicies, templates, templateLinks });
    if (answer.type === 'failure') {
      throw new Error(
        `Cedar refused a checked set: ${answer.errors.map((e) => e.message).join('; ')}`,
      );
    }
    return reads;
  };

  const sets = new Map<string, ActionSets>();
  for (const action of groups.keys()) {
    const decide = `${slot}:decide:${action}`;
    const visible = `${slot}:visible:${action}`;
    const reads = preparse(decide, (policy) => policy, action);
    await pause();
    preparse(visible, scopeOnly, action);
    sets.set(action, {
      decide,
      visible,
      actionEntity: reads.action,
      context: reads.context,
      known: true,
    });
    await pause();
  }
  const unknownReads = preparse(`${slot}:decide:*`, (policy) => policy);
  const unknown: ActionSets = {
    decide: `${slot}:decide:*`,
    visible: `${slot}:visible:*`,
    actionEntity: unknownReads.action,
    context: unknownReads.context,
    known: false,
  };
  preparse(unknown.visible, scopeOnly);
  return { version: set.version, annotations, forAction: (action) => sets.get(action), unknown };
}
