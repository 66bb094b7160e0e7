import type { McpPrincipal } from '../authentication/principal.interface.js';

export type { McpTransportKind } from '../core/protocol/transport-kind.js';
import type { McpTransportKind } from '../core/protocol/transport-kind.js';
import type { McpEra } from '../core/protocol/era.constants.js';

/**
 * What an authorizer decided for one call or read.
 * @publicApi
 */
export type AuthorizerDecision =
  | { kind: 'allow' }
  | {
      kind: 'ask';
      prompt: string;
      /**
       * Who answers: the caller, by elicitation (the default), or an operator
       * who holds the approver scope and is not the caller (docs/operator-approvals.md).
       */
      approver?: 'caller' | 'operator';
    }
  | { kind: 'deny'; reason: string };

/**
 * Built by the server for every decision; nothing a client sends goes into it,
 * which is what makes it safe to base a policy on.
 * @publicApi
 */
export interface AuthorizerContext {
  connId: string;
  /** The transport this request really arrived on. */
  transport: McpTransportKind;
  /** The caller, when the transport authenticated one. */
  principal?: McpPrincipal;
  /**
   * The protocol era of the request: `'legacy'` (the handshake era) or `'modern'` (2026-07-28).
   * The server sets it; absent in a context built by hand.
   */
  era?: McpEra;
  /**
   * Why the server asks. `'call'`: a request the client sent (`tools/call` on
   * the tool seam, the method itself on the read seam), with that request's
   * own arguments. `'visibility'`: whether the caller may see something
   * (`tools/list`, completions, the shape of a denial), asked by the server
   * with stand-in arguments, `{}` for a tool, because no call was made. A
   * policy that looks at arguments should let a visibility check through when
   * some call could be allowed or asked, and decide on the arguments when the
   * call comes (docs/authorization.md).
   *
   * The server always sets it. It is optional in the type so that a context
   * built by hand (a policy's unit test) keeps compiling; absent means `'call'`.
   */
  purpose?: AuthorizerPurpose;
}

/**
 * Why an authorizer is asked: to decide a request the client sent, or to
 * decide whether the caller may see a tool or other item at all.
 * @publicApi
 */
export type AuthorizerPurpose = 'call' | 'visibility';

/**
 * An authorization seam: `(name, args, context) => decision`. On the tool seam
 * `name` is the tool's name and `args` its raw (untrusted, unvalidated)
 * arguments; on the read seam `name` is the JSON-RPC method.
 * @publicApi
 */
export type Authorizer = (
  name: string,
  args: Record<string, unknown>,
  context: AuthorizerContext,
) => AuthorizerDecision | Promise<AuthorizerDecision>;

/**
 * Where the tool authorizer came from: chosen by an operator, or a framework fallback.
 * @publicApi
 */
export type AuthorizerSource = 'configured' | 'default';
