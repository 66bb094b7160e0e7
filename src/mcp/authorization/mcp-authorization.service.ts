import { MCP_OPTIONS } from '../core/options/options.constants.js';
import type { McpAuthorizationSettings } from './authorization-settings.interface.js';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { isPromiseLike, type MaybePromise } from '../core/common/maybe-promise.js';
import type { AuthorizerContext, AuthorizerDecision } from './authorizer.interface.js';
import { withTimeout } from '../core/common/with-timeout.js';
import { ALLOW, AUTHORIZER_FAILED, normalizeDecision } from './decision.normalizer.js';
import { AuthorizerTimeoutBreaker } from './timeout-breaker.js';
import { MCP_SEAM_POLICY, type McpSeamPolicy } from './seam-policy.interface.js';
import { withFields } from '../core/common/with-fields.js';

/** Detail of the deny given to a sensitive tool registered after boot with no authorizer. */
export const SENSITIVE_TOOL_UNGUARDED = 'sensitive_tool_unguarded';
/** Detail of the deny given when an authorizer takes longer than `limits.authorizerTimeoutMs`. */
export const AUTHORIZER_TIMEOUT = 'authorizer_timeout';

/**
 * Evaluates the two seams' authorizers. Every path fails closed: an authorizer
 * that throws or rejects denies, and a sensitive tool with no tool authorizer
 * denies.
 */
@Injectable()
export class McpAuthorizationService {
  private readonly logger = new Logger('McpAuthorization');
  private readonly breaker: AuthorizerTimeoutBreaker;

  private readonly toolAuthorizer: McpAuthorizationSettings['authorizer'];
  private readonly readAuthorizer: McpAuthorizationSettings['authorizer'];

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpAuthorizationSettings,
    @Optional() @Inject(MCP_SEAM_POLICY) private readonly policy: McpSeamPolicy | null = null,
  ) {
    this.breaker = new AuthorizerTimeoutBreaker(options.limits.authorizerTimeoutMs);
    // A policy stands in for both closures (giving both fails boot, docs/policy.md).
    this.toolAuthorizer = policy
      ? (name, args, context) => policy.decideTool(name, args, context)
      : options.authorizer;
    this.readAuthorizer = policy
      ? (method, args, context) => policy.decideRead(method, args, context)
      : options.readAuthorizer;
  }

  /** True when a policy decides, or a tool authorizer is set and an operator chose it. */
  authorizationConfigured(): boolean {
    if (this.policy) return true;
    return this.options.authorizer !== undefined && this.options.authorizerSource === 'configured';
  }

  /** True when the read seam has an authorizer or a policy. */
  readAuthorizationConfigured(): boolean {
    return this.readAuthorizer !== undefined;
  }

  /** Whether any tool authorizer or policy is set (which lifts the sensitive-tool checks). */
  hasToolAuthorizer(): boolean {
    return this.toolAuthorizer !== undefined;
  }

  /**
   * The tool seam's decision for `name` with `args`. Never throws; synchronous
   * when the authorizer is (the hot path stays free of promise hops).
   */
  decideTool(
    name: string,
    args: Record<string, unknown>,
    context: AuthorizerContext,
    sensitive: boolean,
  ): MaybePromise<AuthorizerDecision> {
    if (sensitive && !this.hasToolAuthorizer()) {
      return { kind: 'deny', reason: SENSITIVE_TOOL_UNGUARDED };
    }
    return this.evaluate('tool', this.toolAuthorizer, name, args, context);
  }

  /**
   * Whether a tool is visible to this caller (listed, completable): its
   * decision for empty arguments, asked with `purpose: 'visibility'`, is
   * allow or ask (an ask tool is callable with approval). A deny, or an
   * authorizer that throws, hides just that tool.
   */
  isToolVisible(
    name: string,
    sensitive: boolean,
    context: AuthorizerContext,
  ): MaybePromise<boolean> {
    // Set here, not by each caller: no visibility check can reach a policy looking like a call.
    const visibility: AuthorizerContext = withFields(context, { purpose: 'visibility' } as const);
    if (this.policy) return this.visibleByPolicy(name, visibility);
    const decision = this.decideTool(name, {}, visibility, sensitive);
    return isPromiseLike(decision)
      ? decision.then((settled) => settled.kind !== 'deny')
      : decision.kind !== 'deny';
  }

  /** The read seam's decision for `method` with `args`. Never throws. */
  decideRead(
    method: string,
    args: Record<string, unknown>,
    context: AuthorizerContext,
  ): MaybePromise<AuthorizerDecision> {
    return this.evaluate('read', this.readAuthorizer, method, args, context);
  }

  /* A policy answers visibility itself (DESIGN §6.3); its failure hides, as a deny would. */
  private visibleByPolicy(name: string, context: AuthorizerContext): MaybePromise<boolean> {
    try {
      const visible = this.policy!.toolVisible(name, context);
      return isPromiseLike(visible)
        ? withTimeout(visible, this.options.limits.authorizerTimeoutMs, () => false).catch(
            () => false,
          )
        : visible;
    } catch {
      return false;
    }
  }

  private evaluate(
    seam: string,
    authorizer: McpAuthorizationSettings['authorizer'],
    name: string,
    args: Record<string, unknown>,
    context: AuthorizerContext,
  ): MaybePromise<AuthorizerDecision> {
    if (!authorizer) return ALLOW;
    // The key is built only while some decision is open, or once this one proves asynchronous:
    // a synchronous decision with nothing open never needs it (most calls).
    const key = this.breaker.anyOpen ? this.breaker.key(seam, name, context) : undefined;
    if (key !== undefined && this.breaker.tripped(key)) return TIMED_OUT;
    let decision: ReturnType<NonNullable<McpAuthorizationSettings['authorizer']>>;
    try {
      decision = authorizer(name, args, context);
    } catch (error) {
      return this.failed(seam, name, error);
    }
    return isPromiseLike(decision)
      ? this.settle(seam, name, decision, key ?? this.breaker.key(seam, name, context))
      : this.normalize(decision);
  }

  /* An async decision, bounded by `limits.authorizerTimeoutMs`. */
  private async settle(
    seam: string,
    name: string,
    decision: PromiseLike<AuthorizerDecision>,
    key: string,
  ): Promise<AuthorizerDecision> {
    try {
      const settled = await withTimeout(
        decision,
        this.options.limits.authorizerTimeoutMs,
        () => TIMED_OUT,
      );
      if (settled !== TIMED_OUT) return this.normalize(settled);
      this.breaker.trip(key);
      return settled;
    } catch (error) {
      return this.failed(seam, name, error);
    }
  }

  /* A policy's decisions are the framework's own, trace included; a closure's are checked. */
  private normalize(decision: AuthorizerDecision): AuthorizerDecision {
    return this.policy ? decision : normalizeDecision(decision);
  }

  private failed(seam: string, name: string, error: unknown): AuthorizerDecision {
    this.logger.error(`${seam} authorizer failed for ${name}: ${(error as Error)?.stack ?? error}`);
    return { kind: 'deny', reason: AUTHORIZER_FAILED };
  }
}

const TIMED_OUT: AuthorizerDecision = Object.freeze({ kind: 'deny', reason: AUTHORIZER_TIMEOUT });
