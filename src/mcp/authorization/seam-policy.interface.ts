import type { MaybePromise } from '../core/common/maybe-promise.js';
import type { AuthorizerContext, AuthorizerDecision } from './authorizer.interface.js';

/**
 * Why a policy decided as it did: the determining policies, the digest of the applied set and,
 * with a shadow set, what it would have decided. Carried by the audit event.
 * @publicApi
 */
export interface McpPolicyTrace {
  readonly policies: readonly string[];
  readonly policyVersion: string;
  readonly shadow?: {
    readonly decision: AuthorizerDecision['kind'];
    readonly policies: readonly string[];
  };
}

/** A seam's decision and, when a policy took it, its trace. */
export type TracedDecision = AuthorizerDecision & { readonly trace?: McpPolicyTrace };

/**
 * The port through which a policy engine (the `policy` option, docs/policy.md) decides both
 * seams in place of the `authorizer` and `readAuthorizer` closures. Provided by the policy
 * layer above; null when the app has no `policy`.
 */
export interface McpSeamPolicy {
  decideTool(
    name: string,
    args: Record<string, unknown>,
    context: AuthorizerContext,
  ): MaybePromise<TracedDecision>;
  decideRead(
    method: string,
    args: Record<string, unknown>,
    context: AuthorizerContext,
  ): MaybePromise<TracedDecision>;
  /** Whether the caller may see (list, complete) the tool. */
  toolVisible(name: string, context: AuthorizerContext): MaybePromise<boolean>;
}

/** DI token of the `McpSeamPolicy` port. */
export const MCP_SEAM_POLICY = Symbol('MCP_SEAM_POLICY');
