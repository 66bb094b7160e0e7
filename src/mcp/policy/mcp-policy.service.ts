import { watch, type FSWatcher } from 'node:fs';
import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import type {
  AuthorizerContext,
  AuthorizerDecision,
} from '../authorization/authorizer.interface.js';
import type { McpSeamPolicy, TracedDecision } from '../authorization/seam-policy.interface.js';
import type { MaybePromise } from '../core/common/maybe-promise.js';
import type { McpRegistry } from '../definitions/mcp-registry.service.js';
import type { CedarWasm } from './cedar/cedar.loader.js';
import {
  CedarPolicyEngine,
  type EngineVerdict,
  type McpPolicyReloadResult,
} from './cedar/cedar-policy.engine.js';
import { watchedPaths } from './cedar/policy-sources.js';
import { POLICY_FAILED } from './cedar/cedar-evaluator.js';
import type { PolicyTool } from './cedar/schema.generator.js';
import { McpPolicyMetrics } from './policy-metrics.js';
import { runCases } from './cases/policy-cases.js';
import type { McpPolicyCase, McpPolicyCaseResult } from './cases/policy-case.interface.js';
import type { McpPolicyConfig } from './policy-options.interface.js';
import { serverAttributes } from '../core/servers/server-attribute.js';
import { withFields } from '../core/common/with-fields.js';
import { compileCacheValidation } from './cedar/validation.cache.js';

/* Editors write a file in several steps; one reload follows the last of them. */
const WATCH_SETTLE_MS = 100;

/**
 * The applied policy (docs/policy.md): decides both seams through the `McpSeamPolicy` port,
 * follows the registry's tools, reloads on demand or when its files change. Injectable as
 * `McpPolicy` when the app sets `policy`.
 * @publicApi
 */
export class McpPolicy implements McpSeamPolicy, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('McpPolicy');
  private engine?: CedarPolicyEngine;
  private ready?: Promise<CedarPolicyEngine>;
  private toolChanges?: Subscription;
  private watchers: FSWatcher[] = [];
  private settle?: NodeJS.Timeout;
  private readonly metrics: McpPolicyMetrics;

  /** @internal Made by the module, with Cedar already loaded. */
  constructor(
    private readonly cedar: CedarWasm,
    private readonly config: McpPolicyConfig,
    private readonly serverName: string,
    private readonly registry: McpRegistry,
  ) {
    this.metrics = new McpPolicyMetrics(() => this.engine?.version, serverAttributes(serverName));
  }

  /** The digest of the applied policy set (`policyVersion`). */
  get version(): string {
    return this.engine?.version ?? '';
  }

  /** The Cedar schema generated from the registry, as Cedar text. */
  schema(): string {
    return this.engine?.schemaText() ?? '';
  }

  /**
   * Reads the sources again and applies them when they validate; otherwise keeps the applied
   * set, logs Cedar's diagnostics and counts the failure.
   */
  async reload(): Promise<McpPolicyReloadResult> {
    const engine = await this.started();
    const result = await engine.reload();
    if (result.applied) {
      this.logger.log(`Applied policy set ${result.version}`);
    } else {
      this.metrics.reloadFailed();
      this.logger.error(
        `Refused a policy reload; ${result.version} stays applied:\n  ${result.errors?.join('\n  ')}`,
      );
    }
    return result;
  }

  /** Validates and applies the policies against the discovered tools; invalid ones fail boot. */
  async onApplicationBootstrap(): Promise<void> {
    this.ready = CedarPolicyEngine.create(
      this.cedar,
      this.serverName,
      this.config.options,
      this.tools(),
      {
        warn: (message) => this.logger.warn(message),
        error: (message) => this.logger.error(message),
      },
      // A start with the same policies and tools as the last takes its validation verdict.
      compileCacheValidation(),
    );
    this.engine = await this.ready;
    this.toolChanges = this.registry.changes$.subscribe((kind) => {
      if (kind === 'tools') void this.engine!.toolsChanged(this.tools());
    });
    if (this.config.options.watch) this.watch();
  }

  /** Stops following the registry and the policy files (Nest calls it at shutdown). */
  onModuleDestroy(): void {
    this.toolChanges?.unsubscribe();
    for (const watcher of this.watchers) watcher.close();
    clearTimeout(this.settle);
    this.metrics.close();
  }

  /** The tool seam's decision for a call of `name` (the seams call it; see `McpSeamPolicy`). */
  decideTool(name: string, args: Record<string, unknown>, context: AuthorizerContext) {
    return this.decide('tool', name, args, context);
  }

  /** The read seam's decision for `method` (the seams call it; see `McpSeamPolicy`). */
  decideRead(method: string, args: Record<string, unknown>, context: AuthorizerContext) {
    return this.decide('read', method, args, context);
  }

  /**
   * Runs decision cases against the live registry and set (`runPolicyCases` in
   * `mcp-warden/testing`): the app's `entities` hook runs, then each case's own facts are added.
   * @internal
   */
  async runCases(cases: readonly McpPolicyCase[]): Promise<McpPolicyCaseResult[]> {
    const engine = await this.started();
    return runCases(
      cases,
      (seam, name, args, context, extra) => engine.decide(seam, name, args, context, extra),
      this.serverName,
    );
  }

  /** Whether the caller may see the tool in `tools/list` (DESIGN §6.3, docs/policy.md). */
  toolVisible(name: string, context: AuthorizerContext): MaybePromise<boolean> {
    if (!this.engine) return this.started().then((engine) => engine.visible(name, context));
    return this.engine.visible(name, context);
  }

  private decide(
    seam: 'tool' | 'read',
    name: string,
    args: Record<string, unknown>,
    context: AuthorizerContext,
  ): MaybePromise<TracedDecision> {
    const run = (engine: CedarPolicyEngine): MaybePromise<TracedDecision> => {
      let verdict: MaybePromise<EngineVerdict>;
      try {
        verdict = engine.decide(seam, name, args, context);
      } catch (error) {
        return this.failed(name, error);
      }
      return verdict instanceof Promise
        ? verdict.then(
            (settled) => this.trace(name, settled),
            (error: unknown) => this.failed(name, error),
          )
        : this.trace(name, verdict);
    };
    return this.engine ? run(this.engine) : this.started().then(run);
  }

  /* The entities hook failed: nothing is known about this call, so it is denied (fail closed). */
  private failed(name: string, error: unknown): TracedDecision {
    this.logger.error(
      `The policy's entities hook failed for ${name}: ${(error as Error)?.stack ?? error}`,
    );
    return { kind: 'deny', reason: POLICY_FAILED };
  }

  private trace(name: string, { verdict, version, shadow }: EngineVerdict): TracedDecision {
    this.metrics.evaluationErrors(verdict.errors);
    if (!shadow) {
      const trace = { policies: verdict.policies, policyVersion: version };
      return withFields(verdict.decision, { trace });
    }
    const enforced = verdict.decision.kind;
    if (shadow.decision.kind !== enforced)
      this.metrics.disagreement(name, `${enforced}_${shadow.decision.kind}`);
    const trace = {
      policies: verdict.policies,
      policyVersion: version,
      shadow: {
        decision: shadow.decision.kind as AuthorizerDecision['kind'],
        policies: shadow.policies,
      },
    };
    return withFields(verdict.decision, { trace });
  }

  /* A request before bootstrap finished waits for it rather than pass unjudged. */
  private started(): Promise<CedarPolicyEngine> {
    if (this.engine) return Promise.resolve(this.engine);
    if (!this.ready) return Promise.reject(new Error('the policy is not applied yet'));
    return this.ready;
  }

  private tools(): PolicyTool[] {
    return this.registry.tools().map((entry) => ({
      name: entry.tool.name,
      inputSchema: entry.tool.inputSchema as Record<string, unknown>,
    }));
  }

  private watch(): void {
    const paths = [
      this.config.options.policies,
      this.config.options.templates,
      this.config.options.shadow,
    ].flatMap(watchedPaths);
    if (paths.length === 0) {
      this.logger.warn('`watch` has no file or folder to follow: the policies are inline text');
      return;
    }
    const changed = () => {
      clearTimeout(this.settle);
      this.settle = setTimeout(() => void this.reload(), WATCH_SETTLE_MS);
      this.settle.unref();
    };
    this.watchers = paths.map((path) => watch(path, { persistent: false }, changed));
  }
}
