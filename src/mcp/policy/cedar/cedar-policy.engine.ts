import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AuthorizerContext } from '../../authorization/authorizer.interface.js';
import type { MaybePromise } from '../../core/common/maybe-promise.js';
import { McpPolicyError } from '../policy.errors.js';
import type { McpCedarEntity, McpCedarPolicyOptions } from '../policy-options.interface.js';
import type { CedarWasm } from './cedar.loader.js';
import { CedarEvaluator, type PolicyState } from './cedar-evaluator.js';
import { buildRequest, type CedarRequest } from './cedar-request.js';
import { DecisionCache } from './decision.cache.js';
import type { CedarVerdict } from './decision.mapper.js';
import { compilePolicySet } from './policy-set.compiler.js';
import { readSetTexts, readSource, type SetTexts } from './policy-sources.js';
import { prepareRuntimeSets, runtimeSetsOnDemand } from './runtime-sets.js';
import { generateSchema, type GeneratedSchema, type PolicyTool } from './schema.generator.js';
import type { ValidationCache } from './validation.cache.js';
import { MCP_READ, READ_ACTIONS, TOOLS_CALL } from './vocabulary.js';
import { withFields } from '../../core/common/with-fields.js';

/** What the engine tells its host (the Nest service logs and counts; the CLI prints). */
export interface EngineEvents {
  warn(message: string): void;
  error(message: string): void;
}

/** A decision, and the shadow set's, when there is one. */
export interface EngineVerdict {
  readonly verdict: CedarVerdict;
  readonly version: string;
  readonly shadow?: CedarVerdict;
}

/**
 * What a reload did (`McpPolicy.reload()`).
 * @publicApi
 */
export interface McpPolicyReloadResult {
  applied: boolean;
  version: string;
  errors?: string[];
}

let instances = 0;
const pause = () => nextTurn();

/**
 * A Cedar policy set over a tool list: generates the schema, validates, preparses, decides, and
 * applies reloads and tool changes atomically. It knows nothing of Nest, so the `mcp-warden`
 * command and the server decide with the same code (docs/policy.md).
 */
export class CedarPolicyEngine {
  private readonly instance = ++instances;
  private enforced!: PolicyState;
  private shadowState?: PolicyState;
  private schema!: GeneratedSchema;
  private texts!: SetTexts;
  private shadowTexts?: SetTexts;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly evaluator: CedarEvaluator;
  private readonly warned = new Set<string>();

  private constructor(
    private readonly cedar: CedarWasm,
    private readonly serverName: string,
    private readonly options: McpCedarPolicyOptions,
    private readonly events: EngineEvents,
    private readonly validationCache?: ValidationCache,
  ) {
    this.evaluator = new CedarEvaluator(cedar, (message) =>
      events.error(`Cedar failed to decide: ${message}`),
    );
  }

  /**
   * Reads, validates and applies the sources; throws `McpPolicyError` when they are invalid.
   * `validationCache`: the server's verdicts kept between starts (validation.cache.ts); without
   * it (the `mcp-warden` command) every set is validated.
   */
  static async create(
    cedar: CedarWasm,
    serverName: string,
    options: McpCedarPolicyOptions,
    tools: readonly PolicyTool[],
    events: EngineEvents,
    validationCache?: ValidationCache,
  ): Promise<CedarPolicyEngine> {
    const engine = new CedarPolicyEngine(cedar, serverName, options, events, validationCache);
    engine.schema = engine.generate(tools);
    engine.texts = await readSetTexts(options);
    // Nothing serves yet: the first sets are preparsed as decisions need them.
    const enforced = await engine.build(engine.texts, 'e', true);
    if ('errors' in enforced)
      throw new McpPolicyError('The Cedar policies are invalid', enforced.errors);
    engine.enforced = enforced.state;
    if (options.shadow) {
      engine.shadowTexts = { policies: await readSource(options.shadow, 'shadow') };
      const shadow = await engine.build(engine.shadowTexts, 's', true);
      if ('errors' in shadow) {
        throw new McpPolicyError('The Cedar shadow policies are invalid', shadow.errors);
      }
      engine.shadowState = shadow.state;
    }
    return engine;
  }

  /** The digest of the applied set. */
  get version(): string {
    return this.enforced.sets.version;
  }

  /** The generated schema, as Cedar text. */
  schemaText(): string {
    const answer = this.cedar.schemaToText(this.schema.json);
    return answer.type === 'success' ? answer.text : JSON.stringify(this.schema.json, null, 2);
  }

  /** The generated schema, as Cedar's JSON. */
  schemaJson(): GeneratedSchema['json'] {
    return this.schema.json;
  }

  /** Decides a call (`seam: 'tool'`) or a read; the hook may make it asynchronous. */
  decide(
    seam: 'tool' | 'read',
    name: string,
    args: Readonly<Record<string, unknown>>,
    context: AuthorizerContext,
    extra?: readonly McpCedarEntity[],
  ): MaybePromise<EngineVerdict> {
    const request = this.request(seam, name, args, context, extra);
    return request instanceof Promise
      ? request.then((settled) => this.evaluate(settled))
      : this.evaluate(request);
  }

  /** Whether the caller may see the tool (DESIGN §6.3). */
  visible(name: string, context: AuthorizerContext): MaybePromise<boolean> {
    const visibility = withFields(context, { purpose: 'visibility' } as const);
    const request = this.request('tool', name, {}, visibility);
    const state = this.enforced;
    return request instanceof Promise
      ? request.then((settled) => this.evaluator.visible(state, settled))
      : this.evaluator.visible(state, request);
  }

  /** Re-reads the sources and applies them when they validate; one reload at a time. */
  reload(): Promise<McpPolicyReloadResult> {
    const run = this.queue.then(() => this.reloadNow());
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * The tools changed: the schema follows, and the set is validated again. When it no longer
   * validates, the old set stays, and every tool it was not validated against denies.
   */
  toolsChanged(tools: readonly PolicyTool[]): Promise<void> {
    const run = this.queue.then(async () => {
      const schema = this.generate(tools);
      const previous = this.schema;
      this.schema = schema;
      const enforced = await this.build(this.texts, 'e');
      if ('errors' in enforced) {
        const blocked = new Set(
          tools.map((tool) => tool.name).filter((name) => !previous.inputs.has(name)),
        );
        this.schema = previous;
        this.enforced = { ...this.enforced, blocked, cache: new DecisionCache() };
        this.events.error(
          `The Cedar policies do not validate against the changed tools; ` +
            `[${[...blocked].join(', ')}] deny until they do:\n  ${enforced.errors.join('\n  ')}`,
        );
        return;
      }
      this.enforced = enforced.state;
      if (this.shadowTexts) {
        const shadow = await this.build(this.shadowTexts, 's');
        if ('state' in shadow) this.shadowState = shadow.state;
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async reloadNow(): Promise<McpPolicyReloadResult> {
    let texts: SetTexts;
    try {
      texts = await readSetTexts(this.options);
    } catch (error) {
      return { applied: false, version: this.version, errors: [String((error as Error).message)] };
    }
    const built = await this.build(texts, 'e');
    if ('errors' in built) return { applied: false, version: this.version, errors: built.errors };
    let shadow: PolicyState | undefined;
    let shadowTexts: SetTexts | undefined;
    if (this.options.shadow) {
      shadowTexts = { policies: await readSource(this.options.shadow, 'shadow') };
      const builtShadow = await this.build(shadowTexts, 's');
      if ('errors' in builtShadow) {
        return { applied: false, version: this.version, errors: builtShadow.errors };
      }
      shadow = builtShadow.state;
    }
    // One synchronous swap: a decision reads either the old states or the new ones.
    this.texts = texts;
    // The schema did not change: tools it could not be validated against stay closed.
    this.enforced = { ...built.state, blocked: this.enforced.blocked };
    this.shadowTexts = shadowTexts;
    this.shadowState = shadow;
    return { applied: true, version: this.version };
  }

  private request(
    seam: 'tool' | 'read',
    name: string,
    args: Readonly<Record<string, unknown>>,
    context: AuthorizerContext,
    extra?: readonly McpCedarEntity[],
  ): CedarRequest | Promise<CedarRequest> {
    const hook = this.options.entities;
    // A decision case adds its own facts after the app's hook (see cases/policy-cases.ts).
    const entities: typeof hook =
      extra === undefined
        ? hook
        : (principal, ctx, call) => {
            const found = hook?.(principal, ctx, call) ?? [];
            return found instanceof Promise
              ? found.then((settled) => [...settled, ...extra])
              : [...found, ...extra];
          };
    return buildRequest(seam, name, args, context, this.serverName, this.options, entities);
  }

  private evaluate(request: CedarRequest): EngineVerdict {
    // Both states are read now, together: a reload between them cannot split a decision.
    const enforced = this.enforced;
    const shadowState = this.shadowState;
    const verdict = this.evaluator.decide(enforced, request);
    if (!shadowState) return { verdict, version: enforced.sets.version };
    return {
      verdict,
      version: enforced.sets.version,
      shadow: this.evaluator.decide(shadowState, request),
    };
  }

  private generate(tools: readonly PolicyTool[]): GeneratedSchema {
    const schema = generateSchema(tools, Object.keys(this.options.claims ?? {}));
    for (const { tool, property, why } of schema.untyped) {
      const key = `${tool}\u0000${property}`;
      if (this.warned.has(key)) continue;
      this.warned.add(key);
      this.events.warn(
        `Cedar: tool "${tool}" property "${property}" is left out of context.input (${why}); ` +
          'a policy that reads it fails validation',
      );
    }
    return schema;
  }

  /**
   * Compiles `texts` and preparses the result: all of it before returning (a reload, a change of
   * tools: the applied sets serve meanwhile), or each action's sets at its first decision
   * (`onDemand`, the boot's first sets).
   */
  private async build(
    texts: SetTexts,
    kind: 'e' | 's',
    onDemand = false,
  ): Promise<{ state: PolicyState } | { errors: string[] }> {
    const compiled = await compilePolicySet(
      this.cedar,
      texts,
      this.schema.json,
      pause,
      this.validationCache,
    );
    if (!compiled.ok) return { errors: compiled.errors };
    for (const warning of compiled.warnings) this.events.warn(`Cedar: ${warning}`);
    const groups = new Map<string, string>();
    for (const name of this.schema.inputs.keys()) groups.set(name, TOOLS_CALL);
    for (const method of READ_ACTIONS) groups.set(method, MCP_READ);
    // The slot the applied state of this kind does not use: it stays whole until the swap.
    const live = kind === 'e' ? this.enforced : this.shadowState;
    const index = live?.slot === 0 ? 1 : 0;
    const slot = `mcp-warden:${this.instance}:${kind}:${index}`;
    const sets = onDemand
      ? runtimeSetsOnDemand(this.cedar, compiled.set, groups, slot)
      : await prepareRuntimeSets(this.cedar, compiled.set, groups, slot, pause);
    const state: PolicyState = {
      sets,
      inputs: this.schema.inputs,
      blocked: new Set(),
      cache: new DecisionCache(),
      slot: index,
    };
    return { state };
  }
}
