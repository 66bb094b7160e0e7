/**
 * One decision case (DESIGN §6.5), as a cases file lists them: who calls what, and what the
 * policy must decide. `tags` stand for facts the app's `entities` hook would add to the
 * resource (a note's author), so a case can pin a rule that depends on them.
 * @publicApi
 */
export interface McpPolicyCase {
  readonly name: string;
  readonly principal: {
    readonly subject: string;
    readonly issuer?: string;
    readonly scopes?: readonly string[];
    readonly claims?: Readonly<Record<string, unknown>>;
    readonly groups?: readonly string[];
  } | null;
  /** A tool name (the tool seam) … */
  readonly tool?: string;
  /** … or a read method (`resources/read`, `prompts/get`, …). */
  readonly method?: string;
  readonly arguments?: Readonly<Record<string, unknown>>;
  readonly tags?: Readonly<Record<string, string>>;
  readonly expect: 'allow' | 'ask' | 'deny';
  /** For an ask: who must answer it. */
  readonly approver?: 'caller' | 'operator';
  /** The determining policies' ids, in any order. */
  readonly policies?: readonly string[];
  /** For a deny: its reason. */
  readonly reason?: string;
}

/**
 * A case's outcome: passed, or why not.
 * @publicApi
 */
export interface McpPolicyCaseResult {
  readonly name: string;
  readonly passed: boolean;
  /** What the policy decided: `allow`, `ask (operator)`, `deny (reason)`. */
  readonly actual: string;
  readonly policies: readonly string[];
  /** Why it failed, when it did. */
  readonly problem?: string;
}
