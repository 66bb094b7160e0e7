import { Authorizers, type Authorizer } from '../../src/index.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import {
  Msg,
  runs,
  SECRET_TEXT,
  ASK_PROMPT_TEXT,
  SecurityTools,
  toolPolicy,
} from './security-app.js';

describe('enumeration: completion/complete and error messages', () => {
  let t: McpTestApp;
  afterEach(() => t?.close());

  /** The error of a reply with every occurrence of `name` replaced, to compare two replies. */
  function errorWithout(reply: Msg, name: string): Msg {
    expect(reply.error).toBeDefined();
    return JSON.parse(JSON.stringify(reply.error).split(name).join('<name>')) as Msg;
  }

  const complete = (ref: object, argument: object) =>
    t.request('completion/complete', { ref, argument });

  it('completion on a hidden tool is the same -32602 as on a nonexistent one', async () => {
    t = await createMcpApp({ authorizer: toolPolicy, readAuthorizer: Authorizers.allowAll() }, [
      SecurityTools,
    ]);
    const tools = (await t.result('tools/list')).tools.map((tool: { name: string }) => tool.name);
    expect(tools).toContain('visible_tool');
    expect(tools).not.toContain('hidden_tool');
    // The visible one completes (so the completer path is live).
    const visible = await complete(
      { type: 'ref/tool', name: 'visible_tool' },
      { name: 'q', value: 'a' },
    );
    expect(visible.result.completion.values).toEqual(['alpha']);

    const hidden = await complete(
      { type: 'ref/tool', name: 'hidden_tool' },
      { name: 'q', value: 'a' },
    );
    const unknown = await complete(
      { type: 'ref/tool', name: 'zq9_tool' },
      { name: 'q', value: 'a' },
    );
    expect(hidden.error.code).toBe(-32602);
    expect(errorWithout(hidden, 'hidden_tool')).toEqual(errorWithout(unknown, 'zq9_tool'));
  });

  it('tools/call on a hidden tool and on a nonexistent name the policy also denies: the same deny', async () => {
    t = await createMcpApp({ authorizer: toolPolicy, readAuthorizer: Authorizers.allowAll() }, [
      SecurityTools,
    ]);
    const hidden = await t.callTool('hidden_tool', { q: 'x' });
    const nonexistent = await t.callTool('hidden_zq9', { q: 'x' });
    const strip = (result: Msg, name: string) =>
      JSON.parse(JSON.stringify(result).split(name).join('<name>')) as Msg;
    expect(strip(hidden, 'hidden_tool')).toEqual(strip(nonexistent, 'hidden_zq9'));
    expect(hidden.isError).toBe(true);
    expect(runs).not.toContain('hidden_tool');
  });

  it('a read policy that hides secret_* names: completion on an existing and a nonexistent one is the same deny', async () => {
    const readPolicy: Authorizer = (method, args) => {
      const ref = args.ref as { name?: string } | undefined;
      const name = String(ref?.name ?? args.name ?? '');
      return name.startsWith('secret_') ? { kind: 'deny', reason: 'hidden' } : { kind: 'allow' };
    };
    t = await createMcpApp({ authorizer: toolPolicy, readAuthorizer: readPolicy }, [SecurityTools]);
    const existing = await complete(
      { type: 'ref/prompt', name: 'secret_prompt' },
      { name: 'topic', value: 'l' },
    );
    const missing = await complete(
      { type: 'ref/prompt', name: 'secret_zq9' },
      { name: 'topic', value: 'l' },
    );
    expect(existing.error.code).toBe(-31403);
    expect(existing.error).toEqual(missing.error);
  });

  /**
   * This caller may not list or get prompts, nor list templates or read secret:// resources;
   * completion/complete itself is allowed. docs/authorization.md ("How the seams behave"): completion on a
   * prompt or template the caller cannot see is -32602, like an unknown one.
   */
  const blindPolicy: Authorizer = (method, args) => {
    if (method === 'prompts/list' || method === 'prompts/get')
      return { kind: 'deny', reason: 'no' };
    if (method === 'resources/templates/list') return { kind: 'deny', reason: 'no' };
    if (String(args.uri ?? '').startsWith('secret://')) return { kind: 'deny', reason: 'no' };
    return { kind: 'allow' };
  };

  it('completion on a prompt the caller cannot see (list and get denied) is the same -32602 as an unknown one', async () => {
    t = await createMcpApp({ authorizer: toolPolicy, readAuthorizer: blindPolicy }, [
      SecurityTools,
    ]);
    expect((await t.request('prompts/list')).error.code).toBe(-31403);
    expect((await t.request('prompts/get', { name: 'secret_prompt' })).error.code).toBe(-31403);
    const argument = { name: 'topic', value: 'l' };
    const prompt = await complete({ type: 'ref/prompt', name: 'secret_prompt' }, argument);
    const noPrompt = await complete({ type: 'ref/prompt', name: 'zq9_prompt' }, argument);
    expect(noPrompt.error.code).toBe(-32602);
    expect(JSON.stringify(prompt)).not.toContain('launch');
    expect(prompt.error && errorWithout(prompt, 'secret_prompt')).toEqual(
      errorWithout(noPrompt, 'zq9_prompt'),
    );
  });

  it('completion on a template the caller cannot see (list and reads denied) is the same -32602 as an unknown one', async () => {
    t = await createMcpApp({ authorizer: toolPolicy, readAuthorizer: blindPolicy }, [
      SecurityTools,
    ]);
    expect((await t.request('resources/templates/list')).error.code).toBe(-31403);
    expect((await t.request('resources/read', { uri: 'secret://7/plan' })).error.code).toBe(-31403);
    const argument = { name: 'id', value: 'l' };
    const template = await complete({ type: 'ref/resource', uri: 'secret://{id}/plan' }, argument);
    const noTemplate = await complete({ type: 'ref/resource', uri: 'secret://{zq9}/x' }, argument);
    expect(noTemplate.error.code).toBe(-32602);
    expect(JSON.stringify(template)).not.toContain('launch');
    expect(template.error && errorWithout(template, 'secret://{id}/plan')).toEqual(
      errorWithout(noTemplate, 'secret://{zq9}/x'),
    );
  });

  it('a denied read reveals nothing beyond the deny: same error for an existing and a nonexistent resource', async () => {
    const readPolicy: Authorizer = (_method, args) =>
      String(args.uri ?? '').startsWith('secret://')
        ? { kind: 'deny', reason: 'no_secrets' }
        : { kind: 'allow' };
    t = await createMcpApp({ authorizer: toolPolicy, readAuthorizer: readPolicy }, [SecurityTools]);
    for (const method of ['resources/read', 'resources/subscribe']) {
      const existing = await t.request(method, { uri: 'secret://doc' });
      const templated = await t.request(method, { uri: 'secret://7/plan' });
      const missing = await t.request(method, { uri: 'secret://nope' });
      const deny = {
        code: -31403,
        message: `authorization_required: ${method}`,
        data: { error: 'authorization_required', method, detail: 'no_secrets' },
      };
      expect(existing.error).toEqual(deny);
      expect(templated.error).toEqual(deny);
      expect(missing.error).toEqual(deny);
      for (const reply of [existing, templated, missing]) {
        expect(Object.keys(reply).sort()).toEqual(['error', 'id', 'jsonrpc']);
        expect(JSON.stringify(reply)).not.toMatch(/secret:\/\/|launch codes/);
      }
    }
  });

  it('a read that asks denies without echoing the prompt, the same for an existing and a nonexistent prompt', async () => {
    const readPolicy: Authorizer = (method) =>
      method === 'prompts/get' ? { kind: 'ask', prompt: ASK_PROMPT_TEXT } : { kind: 'allow' };
    t = await createMcpApp({ authorizer: toolPolicy, readAuthorizer: readPolicy }, [SecurityTools]);
    const existing = await t.request('prompts/get', { name: 'secret_prompt' });
    const missing = await t.request('prompts/get', { name: 'zq9_prompt' });
    expect(existing.error).toEqual({
      code: -31403,
      message: 'authorization_required: prompts/get',
      data: {
        error: 'authorization_required',
        method: 'prompts/get',
        detail: 'interactive_approval_unsupported',
      },
    });
    expect(missing.error).toEqual(existing.error);
    for (const reply of [existing, missing]) {
      expect(JSON.stringify(reply)).not.toContain(ASK_PROMPT_TEXT);
      expect(JSON.stringify(reply)).not.toContain(SECRET_TEXT);
    }
  });
});
