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
 * `slot`, plus one for unknown actions, before it returns: what a reload or a change of tools
 * builds while the applied sets keep serving, yielding (`pause`) between actions so a large set
 * never stalls the server. Preparsed sets live inside the engine; a slot is reused by every
 * other reload, which is safe because a decision is one synchronous call and the swap to new
 * sets happens only once all of them are ready.
 */
export async function prepareRuntimeSets(
  cedar: CedarWasm,
  set: CompiledSet,
  groups: ReadonlyMap<string, string>,
  slot: string,
  pause: () => Promise<void> = async () => {},
): Promise<RuntimeSets> {
  const preparer = new SetPreparer(cedar, set, groups, slot);
  const sets = new Map<string, ActionSets>();
  for (const action of groups.keys()) {
    const reads = preparer.decide(action);
    await pause();
    sets.set(action, preparer.visible(action, reads));
    await pause();
  }
  const unknown = preparer.both(undefined);
  return {
    version: set.version,
    annotations: preparer.annotations,
    forAction: (action) => sets.get(action),
    unknown,
  };
}

/**
 * The same sets, each preparsed the first time a decision asks for it: what the first set of a
 * boot applies, before the server serves anything. A boot then preparses only the actions its
 * first calls meet (all 30-odd actions' sets cost a small server's start 10–17 ms on Node 24:
 * docs/policy.md, "Performance"). One action's sets are what a reload preparses between two
 * pauses, so the first call of an action waits no longer than a reload stalls. Cedar's answer
 * for a set does not change, so a refusal is kept and thrown again without asking it twice.
 */
export function runtimeSetsOnDemand(
  cedar: CedarWasm,
  set: CompiledSet,
  groups: ReadonlyMap<string, string>,
  slot: string,
): RuntimeSets {
  const preparer = new SetPreparer(cedar, set, groups, slot);
  const made = new Map<string | undefined, ActionSets | Error>();
  const setsOf = (action: string | undefined): ActionSets => {
    let found = made.get(action);
    if (!found) {
      try {
        found = preparer.both(action);
      } catch (error) {
        found = error as Error;
      }
      made.set(action, found);
    }
    if (found instanceof Error) throw found;
    return found;
  };
  return {
    version: set.version,
    annotations: preparer.annotations,
    forAction: (action) => (groups.has(action) ? setsOf(action) : undefined),
    get unknown() {
      return setsOf(undefined);
    },
  };
}

/** What a decide set's policies read. */
interface Reads {
  action: boolean;
  context: boolean;
}

/** Preparses the sets of one action (undefined: the actions the schema does not have). */
class SetPreparer {
  private readonly members = new Map<string, Set<string> | 'all'>();
  readonly annotations = new Map<string, Annotations>();

  constructor(
    private readonly cedar: CedarWasm,
    private readonly set: CompiledSet,
    groups: ReadonlyMap<string, string>,
    private readonly slot: string,
  ) {
    for (const policy of set.policies.values()) {
      this.members.set(policy.id, actionsOf(policy.json.action, groups));
      this.annotations.set(policy.id, policy.json.annotations ?? {});
    }
    for (const link of set.links) {
      this.annotations.set(link.newId, this.annotations.get(link.templateId) ?? {});
    }
  }

  /** Both sets of `action`, one right after the other. */
  both(action: string | undefined): ActionSets {
    return this.visible(action, this.decide(action));
  }

  /** The set that decides a call of `action`. */
  decide(action: string | undefined): Reads {
    return this.preparse(this.id('decide', action), (policy) => policy, action);
  }

  /** The scope-only set that decides whether `action` is visible; completes its ActionSets. */
  visible(action: string | undefined, reads: Reads): ActionSets {
    this.preparse(this.id('visible', action), scopeOnly, action);
    return {
      decide: this.id('decide', action),
      visible: this.id('visible', action),
      actionEntity: reads.action,
      context: reads.context,
      known: action !== undefined,
    };
  }

  private id(kind: 'decide' | 'visible', action: string | undefined): string {
    return `${this.slot}:${kind}:${action ?? '*'}`;
  }

  private preparse(
    id: string,
    pick: (policy: PolicyJson) => PolicyJson | undefined,
    action?: string,
  ): Reads {
    const staticPolicies: Record<string, PolicyJson> = {};
    const templates: Record<string, PolicyJson> = {};
    const reads = { action: false, context: false };
    for (const policy of this.set.policies.values()) {
      const matches = this.members.get(policy.id)!;
      if (matches !== 'all' && (action === undefined || !matches.has(action))) continue;
      const picked = pick(action === undefined ? policy.json : withoutActionScope(policy.json));
      if (!picked) continue;
      reads.action ||= readsVar(picked, 'action');
      reads.context ||=
        readsVar(picked, 'context') || /\{input\./.test(picked.annotations?.ask ?? '');
      (policy.template ? templates : staticPolicies)[policy.id] = picked;
    }
    const templateLinks: TemplateLink[] = this.set.links.filter(
      (link) => templates[link.templateId],
    );
    const answer = this.cedar.preparsePolicySet(id, { staticPolicies, templates, templateLinks });
    if (answer.type === 'failure') {
      throw new Error(
        `Cedar refused a checked set: ${answer.errors.map((e) => e.message).join('; ')}`,
      );
    }
    return reads;
  }
}
