// The Warden bench servers' policy, written twice: as the closures a server passes as
// `authorizer` and `readAuthorizer`, and as the Cedar set that decides the same (the
// throughput-http-cedar rows compare the two on the same server). The closures are written the
// way the notes service wrote its own before it moved to Cedar; the read rules are the service's
// (its read closure then, policies/notes-reads.cedar now), inlined, so the bench does not depend
// on the service's files.
import { McpPolicies } from '../../dist/index.js';

/** Allow the echoes, ask a human before `guarded_echo`, deny anything else (closed by default). */
export const echoToolPolicy = (name, args) => {
  switch (name) {
    case 'echo':
    case 'echo_dto':
    case 'echo_zod':
    case 'echo_task':
    case 'echo_exchange':
    case 'echo_async':
      return { kind: 'allow' };
    case 'guarded_echo': {
      // Arguments are untrusted here (the seam runs before validation).
      const text = typeof args.text === 'string' ? args.text : '(unspecified)';
      return { kind: 'ask', prompt: `Echo ${text}?` };
    }
    default:
      return { kind: 'deny', reason: 'tool_not_in_policy' };
  }
};

const READ_METHODS = new Set([
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'resources/subscribe',
  'resources/unsubscribe',
  'subscriptions/listen',
  // A task is its creator's alone (the framework answers anyone else "unknown task"): the policy
  // lets its owner follow it, as Cedar's `mcp/read` group does.
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
]);

/** Metadata and prompts are readable; resources only under the `notes://` scheme. */
export const echoReadPolicy = (method, args) => {
  if (method === 'resources/read') {
    return typeof args.uri === 'string' && args.uri.startsWith('notes://')
      ? { kind: 'allow' }
      : { kind: 'deny', reason: 'outside_notes' };
  }
  return READ_METHODS.has(method)
    ? { kind: 'allow' }
    : { kind: 'deny', reason: 'method_not_in_policy' };
};

/**
 * The same two closures as Cedar, for the tools `allowed` (always `echo`, and `echo_dto`,
 * `echo_zod` and `echo_task` when registered: strict validation refuses a rule naming an action
 * that does not exist). The forbid gives a name no rule opens the closure's reason; every read
 * method is an `mcp/read` action, so the read closure's `method_not_in_policy` has no
 * counterpart to reach. `{input.text}` reads `(unspecified)` for a non-string text, as the
 * closure does (Cedar's prompt cuts a value at 100 characters, the closure does not).
 *
 * `readsInput`: `echo` is allowed by a rule that reads its argument (`text like "*"`, any
 * string: every call input validation lets through). No rule of the twin reads `echo`'s
 * arguments, so the policy leaves them out of its decision and of its cache key, and calls that
 * differ only in their text share one decision; with this rule each new text is evaluated anew,
 * which the rows of evaluated decisions need.
 */
export function echoCedarText(allowed, { readsInput = false } = {}) {
  const actions = (names) => names.map((name) => `Mcp::Action::"${name}"`).join(', ');
  const plain = readsInput ? allowed.filter((name) => name !== 'echo') : allowed;
  const rules = [
    readsInput &&
      `@id("echo-any-text-allow")
permit (principal, action == Mcp::Action::"echo", resource)
when { context.input.text like "*" };`,
    plain.length > 0 &&
      `@id("echo-tools-allow")
permit (principal, action in [${actions(plain)}], resource);`,
    `@id("guarded-echo-asks")
@ask("Echo {input.text}?")
permit (principal, action == Mcp::Action::"guarded_echo", resource);`,
    `@id("tool-not-in-policy")
@reason("tool_not_in_policy")
forbid (principal, action, resource)
unless { action in [${actions([...allowed, 'guarded_echo', 'mcp/read'])}] };`,
    `@id("reads-open")
permit (principal, action in Mcp::Action::"mcp/read", resource);`,
    `@id("reads-outside-notes-deny")
@reason("outside_notes")
forbid (principal, action == Mcp::Action::"resources/read", resource is Mcp::Resource)
unless { resource.uri like "notes://*" };`,
  ];
  return `${rules.filter(Boolean).join('\n\n')}\n`;
}

/**
 * The `McpModule.forRoot` options that install one form of the policy: `form` 'cedar' (the
 * twin), 'cedar-input' (the twin with `echo`'s rule reading its argument), or nothing for the
 * closures. Anything else fails, so a mistyped setting cannot bench the closures under a Cedar
 * row's name.
 */
export function echoPolicyOptions(form, allowed) {
  if (form === 'cedar' || form === 'cedar-input') {
    const text = echoCedarText(allowed, { readsInput: form === 'cedar-input' });
    return { policy: McpPolicies.cedar({ policies: { text } }) };
  }
  if (form) throw new Error(`WARDEN_POLICY=${form}: expected cedar or cedar-input, or nothing`);
  return {
    authorizer: echoToolPolicy,
    authorizerSource: 'configured',
    readAuthorizer: echoReadPolicy,
  };
}
