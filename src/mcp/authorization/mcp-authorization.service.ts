import { MCP_OPTIONS } from '../core/options/options.constants.js';
import type { McpAuthorizationSettings } from './authorization-settings.interface.js';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { isPromiseLike, type MaybePromise } from '../core/common/maybe-promise.js';
import type { AuthorizerContext, AuthorizerDecision } from './authorizer.interface.js';
import { withTimeout } from '../core/common/with-timeout.js';
import { ALLOW, AUTHORIZER_FAILED, normalizeDecision } from './decision.normalizer.js';
import { AuthorizerTimeoutBreaker } from './timeout-breaker.js';

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

  constructor(@Inject(MCP_OPTIONS) private readonly options: McpAuthorizationSettings) {
    this.breaker = new AuthorizerTimeoutBreaker(options.limits.authorizerTimeoutMs);
  }

  /** True only when a tool authorizer is set and an operator chose it (`'configured'`). */
  authorizationConfigured(): boolean {
    return this.options.authorizer !== undefined && this.options.authorizerSource === 'configured';
  }

  /** True when the read seam has an authorizer. */
  readAuthorizationConfigured(): boolean {
    return this.options.readAuthorizer !== undefined;
  }

  /** Whether any tool authorizer is set (which lifts the sensitive-tool checks). */
  hasToolAuthorizer(): boolean {
    return this.options.authorizer !== undefined;
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
    return this.evaluate('tool', this.options.authorizer, name, args, context);
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
    const visibility: AuthorizerContext = { ...context, purpose: 'visibility' };
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
    return this.evaluate('read', this.options.readAuthorizer, method, args, context);
  }

  private evaluate(
    seam: string,
    authorizer: McpAuthorizationSettings['authorizer'],
    name: string,
    args: Record<string, unknown>,
    context: AuthorizerContext,
  ): MaybePromise<AuthorizerDecision> {
    if (!authorizer) return ALLOW;
    const key = this.breaker.key(seam, name, context);
    if (this.breaker.tripped(key)) return TIMED_OUT;
    let decision: ReturnType<NonNullable<McpAuthorizationSettings['authorizer']>>;
    try {
      decision = authorizer(name, args, context);
    } catch (error) {
      return this.failed(seam, name, error);
    }
    return isPromiseLike(decision)
      ? this.settle(seam, name, decision, key)
      : normalizeDecision(decision);
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
      if (settled !== TIMED_OUT) return normalizeDecision(settled);
      this.breaker.trip(key);
      return settled;
    } catch (error) {
      return this.failed(seam, name, error);
    }
  }

  private failed(seam: string, name: string, error: unknown): AuthorizerDecision {
    this.logger.error(`${seam} authorizer failed for ${name}: ${(error as Error)?.stack ?? error}`);
    return { kind: 'deny', reason: AUTHORIZER_FAILED };
  }
}

const TIMED_OUT: AuthorizerDecision = Object.freeze({ kind: 'deny', reason: AUTHORIZER_TIMEOUT });
