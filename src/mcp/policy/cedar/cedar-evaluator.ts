import type { CedarValueJson, EntityJson } from '@cedar-policy/cedar-wasm/nodejs';
import type { CedarWasm } from './cedar.loader.js';
import type { CedarRequest } from './cedar-request.js';
import { DecisionCache } from './decision.cache.js';
import { verdictOf, type CedarVerdict } from './decision.mapper.js';
import { cedarValue, UNREPRESENTABLE, type CedarType } from './input-types.js';
import type { ActionSets, RuntimeSets } from './runtime-sets.js';
import { ENTITY, MCP_READ, TOOLS_CALL } from './vocabulary.js';

/** Detail of the deny when the Cedar engine itself fails: fail closed. */
export const POLICY_FAILED = 'policy_failed';
/** Detail of the deny for a tool the applied policy set could not be validated against. */
export const POLICY_INVALID_FOR_TOOL = 'policy_invalid_for_tool';

/** Detail of the deny for an argument Cedar cannot hold exactly (fail closed, input-types.ts). */
export const INPUT_NOT_REPRESENTABLE = 'input_not_representable';

/** One applied policy set: preparsed sets, the input types, and its own decision cache. */
export interface PolicyState {
  readonly sets: RuntimeSets;
  readonly inputs: ReadonlyMap<string, CedarType>;
  /** Tools registered after the set was applied that it cannot be validated against. */
  readonly blocked: ReadonlySet<string>;
  readonly cache: DecisionCache<CedarVerdict | boolean>;
  /** Which of the two preparse slots of its kind the state's sets occupy. */
  readonly slot: number;
}

/** Why the engine failed, for the log (never for the caller). */
export type EngineFailure = (message: string) => void;

/**
 * Evaluates one request against one applied set, synchronously: a decision reads one state
 * from start to end, which is what makes a reload atomic for every call.
 */
export class CedarEvaluator {
  constructor(
    private readonly cedar: CedarWasm,
    private readonly onFailure: EngineFailure,
  ) {}

  decide(state: PolicyState, request: CedarRequest): CedarVerdict {
    if (request.seam === 'tool' && state.blocked.has(request.action)) {
      return {
        decision: { kind: 'deny', reason: POLICY_INVALID_FOR_TOOL },
        policies: [],
        errors: 0,
      };
    }
    const sets = this.setsOf(state, request);
    if (!sets) {
      return { decision: { kind: 'deny', reason: POLICY_FAILED }, policies: [], errors: 0 };
    }
    // A set no policy of which reads the context decides the same for any arguments: they are
    // neither converted nor sent.
    let context: Record<string, CedarValueJson> = {};
    let input: Record<string, CedarValueJson> = {};
    if (sets.context) {
      const converted =
        request.seam === 'tool'
          ? cedarValue(
              state.inputs.get(request.action) ?? { type: 'Record', attributes: {} },
              request.args,
            )
          : undefined;
      if (converted === UNREPRESENTABLE) {
        return {
          decision: { kind: 'deny', reason: INPUT_NOT_REPRESENTABLE },
          policies: [],
          errors: 0,
        };
      }
      input = (converted ?? {}) as Record<string, CedarValueJson>;
      context =
        request.seam === 'tool'
          ? { input, session: request.session }
          : { session: request.session };
    }
    const entities = this.entitiesOf(request, sets);
    const key = `d\u0000${request.action}\u0000${request.entitiesKey}\u0000${JSON.stringify(context)}`;
    const cached = state.cache.get(key);
    if (cached !== undefined) return cached as CedarVerdict;
    const response = this.authorize(sets.decide, request, entities, context);
    if (!response) {
      return { decision: { kind: 'deny', reason: POLICY_FAILED }, policies: [], errors: 0 };
    }
    const tags = (request.entities[1]?.tags ?? {}) as Record<string, unknown>;
    const verdict = verdictOf(response, state.sets.annotations, input, tags);
    // Every call that repeats the request gets this object, and audit events carry its ids.
    Object.freeze(verdict.policies);
    Object.freeze(verdict.decision);
    state.cache.set(key, Object.freeze(verdict));
    return verdict;
  }

  /**
   * DESIGN §6.3: visible when a permit's scope matches this caller and this tool's action,
   * whatever its conditions, and no unconditional forbid's scope does.
   */
  visible(state: PolicyState, request: CedarRequest): boolean {
    if (state.blocked.has(request.action)) return false;
    const sets = this.setsOf(state, request);
    if (!sets) return false;
    const entities = this.entitiesOf(request, sets);
    const key = `v\u0000${request.action}\u0000${request.entitiesKey}`;
    const cached = state.cache.get(key);
    if (cached !== undefined) return cached as boolean;
    const response = this.authorize(sets.visible, request, entities, {});
    const visible = response?.decision === 'allow';
    if (response) state.cache.set(key, visible);
    return visible;
  }

  /*
   * The action's preparsed sets. A boot's sets are preparsed at their first decision
   * (runtime-sets.ts), where Cedar could fail: the call then denies, as any engine failure does.
   */
  private setsOf(state: PolicyState, request: CedarRequest): ActionSets | undefined {
    try {
      return state.sets.forAction(request.action) ?? state.sets.unknown;
    } catch (error) {
      this.onFailure(String((error as Error)?.message ?? error));
      return undefined;
    }
  }

  private authorize(
    setId: string,
    request: CedarRequest,
    entities: EntityJson[],
    context: Record<string, CedarValueJson>,
  ) {
    try {
      const answer = this.cedar.statefulIsAuthorized({
        principal: entities[0].uid,
        action: { type: ENTITY.action, id: request.action },
        resource: entities[1].uid,
        context,
        // The context is built from the generated types above; the schema is applied at
        // validation, and checking each request against it again would triple the cost.
        validateRequest: false,
        preparsedPolicySetId: setId,
        entities,
      });
      if (answer.type === 'success') return answer.response;
      this.onFailure(answer.errors.map((error) => error.message).join('; '));
    } catch (error) {
      this.onFailure(String((error as Error)?.message ?? error));
    }
    return undefined;
  }

  private entitiesOf(request: CedarRequest, sets: ActionSets): EntityJson[] {
    if (!sets.actionEntity) return request.entities as EntityJson[];
    // A condition reads `action`: its membership in its group must be known. An action the
    // schema does not have belongs to no group.
    const known = sets.known;
    const group = request.seam === 'tool' ? TOOLS_CALL : MCP_READ;
    return [
      ...request.entities,
      {
        uid: { type: ENTITY.action, id: request.action },
        attrs: {},
        parents: known ? [{ type: ENTITY.action, id: group }] : [],
      },
    ];
  }
}
