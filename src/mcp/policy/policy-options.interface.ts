import type { McpPrincipal } from '../authentication/principal.interface.js';
import type { AuthorizerContext } from '../authorization/authorizer.interface.js';

/**
 * Where Cedar text comes from: inline text, one file, or every `*.cedar` file in a folder
 * (read in name order).
 * @publicApi
 */
export type McpPolicySource = { text: string } | { file: string } | { dir: string };

/**
 * One source, or several read together as one set (a base folder and an optional file beside
 * it, say): each file keeps its name in messages and default policy ids.
 * @publicApi
 */
export type McpPolicySources = McpPolicySource | readonly McpPolicySource[];

/**
 * A Cedar entity uid, as Cedar's JSON format spells it (`{ type: 'Mcp::Group', id: 'admins' }`).
 * @publicApi
 */
export interface McpCedarUid {
  readonly type: string;
  readonly id: string;
}

/**
 * An entity an app adds to a decision (roles and groups from a directory, facts about what a
 * call touches). An entity with the principal's or the resource's uid adds its parents, tags and
 * attributes to that one; the principal's verified attributes always win.
 * @publicApi
 */
export interface McpCedarEntity {
  readonly uid: McpCedarUid;
  readonly attrs?: Readonly<Record<string, unknown>>;
  readonly parents?: readonly McpCedarUid[];
  readonly tags?: Readonly<Record<string, string>>;
}

/**
 * What the `entities` hook is asked for: the action (the tool's name or the read method), its
 * arguments (raw and untrusted: the seam runs before validation) and the Cedar resource.
 * @publicApi
 */
export interface McpCedarCall {
  readonly action: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly resource: McpCedarUid;
  /** `'visibility'` when the server only decides whether the caller may see the tool. */
  readonly purpose: 'call' | 'visibility';
}

/**
 * A link of a Cedar template: its id, the new policy's id, and the slots' values.
 * @publicApi
 */
export interface McpCedarTemplateLink {
  readonly templateId: string;
  readonly newId: string;
  readonly values: Readonly<Record<'?principal' | '?resource', McpCedarUid>>;
}

/**
 * Options of `McpPolicies.cedar()` (docs/policy.md).
 * @publicApi
 */
export interface McpCedarPolicyOptions {
  /** The policies that decide both seams. */
  readonly policies: McpPolicySources;
  /** Templates, linked by `links`. */
  readonly templates?: McpPolicySources;
  readonly links?: readonly McpCedarTemplateLink[];
  /** A second set, evaluated beside the first and recorded, never enforced. */
  readonly shadow?: McpPolicySources;
  /** Apply a changed file or folder atomically (file and folder sources only). */
  readonly watch?: boolean;
  /** The token claim that lists the caller's groups (`Mcp::Group` parents). */
  readonly groupsClaim?: string;
  /** Principal attributes from token claims: attribute name → claim name (optional strings). */
  readonly claims?: Readonly<Record<string, string>>;
  /** Extra entities for a decision: roles and groups from a directory, facts a call touches. */
  readonly entities?: (
    principal: McpPrincipal | undefined,
    context: AuthorizerContext,
    call: McpCedarCall,
  ) => readonly McpCedarEntity[] | Promise<readonly McpCedarEntity[]>;
}

/**
 * The `policy` option's value, made by `McpPolicies.cedar()`.
 * @publicApi
 */
export interface McpPolicyConfig {
  readonly engine: 'cedar';
  readonly options: McpCedarPolicyOptions;
}
