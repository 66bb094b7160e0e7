import { jest } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import {
  Authorizers,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpHttpSessions,
  McpTool,
  type Authorizer,
  type McpModuleOptions,
} from '../src/index.js';
import { createHttpApp, initializeParams, type HttpTestApp } from './support/http-app.js';
import { SseReader } from './support/http-sse.js';
import { createMcpApp, type McpTestApp } from './support/mcp-test-app.js';
import { parseRawAnswer, rawSocketExchange } from './support/reliability-support.js';

/*
 * Security review: DNS rebinding (Host and Origin variants), session
 * fixation, answers to another session's elicitation, forged and replayed
 * answers, and enumeration through completion/complete and error messages.
 */

jest.setTimeout(20_000);

type Msg = Record<string, any>;

const runs: string[] = [];
const SECRET_TEXT = 'the launch codes are 0000';
const ASK_PROMPT_TEXT = 'Reveal the plan to this caller?';

@Injectable()
class SecurityTools {
  @McpTool({ description: 'Needs approval', input: { type: 'object' } })
  guarded() {
    runs.push('guarded');
    return 'guarded ran';
  }

  @McpTool({
    description: 'Visible',
    input: { type: 'object', properties: { q: { type: 'string' } } },
    completions: { q: 'completeQ' },
  })
  visible_tool() {
    return 'visible';
  }

  @McpTool({
    description: 'Hidden from every caller by the tool policy',
    input: { type: 'object', properties: { q: { type: 'string' } } },
    completions: { q: 'completeQ' },
  })
  hidden_tool() {
    runs.push('hidden_tool');
    return 'hidden';
  }

  completeQ(prefix: string) {
    return ['alpha', 'beta'].filter((v) => v.startsWith(prefix));
  }

  @McpPrompt({
    name: 'secret_prompt',
    description: 'A prompt this caller must not learn about',
    arguments: [{ name: 'topic', complete: 'completeTopic' }],
  })
  secretPrompt() {
    return [{ role: 'user', content: { type: 'text', text: SECRET_TEXT } }];
  }

  completeTopic(prefix: string) {
    return ['launch', 'landing'].filter((v) => v.startsWith(prefix));
  }

  @McpResource({ uri: 'secret://doc', mimeType: 'text/plain' })
  secretDoc() {
    return SECRET_TEXT;
  }

  @McpResourceTemplate({ uriTemplate: 'secret://{id}/plan', complete: { id: 'completeTopic' } })
  secretPlan() {
    return SECRET_TEXT;
  }
}

/** Tool seam: ask for `guarded`, deny every `hidden_*` name (existing or not), allow the rest. */
const toolPolicy: Authorizer = (name) => {
  if (name === 'guarded') return { kind: 'ask', prompt: 'Run guarded?' };
  if (name.startsWith('hidden_')) return { kind: 'deny', reason: 'not_yours' };
  return { kind: 'allow' };
};

const HTTP_OPTIONS: Partial<McpModuleOptions> = {
  authorizer: toolPolicy,
  authorizerSource: 'configured',
  readAuthorizer: Authorizers.allowAll(),
  elicitationTimeoutMs: 10_000,
};

function errorBody() {
  return {
    jsonrpc: '2.0',
    id: null,
    error: { code: expect.any(Number), message: expect.any(String) },
  };
}

describe('DNS rebinding: Host and Origin', () => {
  let t: HttpTestApp;
  let sessionId: string;

  beforeAll(async () => {
    t = await createHttpApp(HTTP_OPTIONS, [SecurityTools]);
    sessionId = (await t.initialize()).sessionId;
  });
  afterAll(() => t?.close());

  const initBody = () =>
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams() });

  /** POSTs initialize with exactly these headers (plus the conforming Accept and Content-Type). */
  function rawInit(headers: Record<string, string>) {
    return t.raw(
      'POST',
      '/mcp',
      {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        ...headers,
      },
      initBody(),
    );
  }

  function expect403(response: { status: number; headers: Msg; body: string }, what: string) {
    expect([what, response.status]).toEqual([what, 403]);
    expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
    expect(JSON.parse(response.body)).toEqual(errorBody());
  }

  it('loopback Host variants are served: case, any port, IPv6 [::1]', async () => {
    for (const host of [
      `LOCALHOST:${t.port}`,
      'LocalHost',
      'localhost:1',
      `127.0.0.1:${t.port}`,
      '127.0.0.1',
      `[::1]:${t.port}`,
      '[::1]',
    ]) {
      const response = await rawInit({ host });
      expect([host, response.status]).toEqual([host, 200]);
    }
  });

  it('foreign Host values are 403 with a JSON-RPC body, and mint no session', async () => {
    const sessions = t.app.get(McpHttpSessions);
    const before = sessions.size;
    for (const host of [
      'evil.example.com',
      `evil.example.com:${t.port}`,
      'localhost.evil.com',
      `localhost.evil.com:${t.port}`,
      '127.0.0.1.nip.io',
      `0.0.0.0:${t.port}`,
      '[::2]',
      'localhost@evil.com',
      '',
    ]) {
      expect403(await rawInit({ host }), `Host ${host}`);
    }
    expect(sessions.size).toBe(before);
  });

  it('a request without a Host header is refused: 403 (HTTP/1.0), never served (HTTP/1.1)', async () => {
    const head = (version: string) =>
      [
        `POST /mcp HTTP/${version}`,
        'Accept: application/json, text/event-stream',
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(initBody())}`,
        'Connection: close',
      ].join('\r\n');
    const http10 = parseRawAnswer(await rawSocketExchange(t.port, head('1.0'), initBody()));
    expect(http10.status).toBe(403);
    expect(JSON.parse(http10.body)).toEqual(errorBody());
    // Node's HTTP server itself refuses an HTTP/1.1 request without Host (400) before the app.
    const http11 = parseRawAnswer(await rawSocketExchange(t.port, head('1.1'), initBody()));
    expect([400, 403]).toContain(http11.status);
  });

  it('Origin: loopback ones (any case, port, IPv6) pass; null, foreign and look-alikes are 403', async () => {
    for (const origin of [
      'http://localhost:5173',
      'http://LOCALHOST',
      'https://127.0.0.1:8443',
      'http://[::1]:3000',
    ]) {
      const response = await rawInit({ origin });
      expect([origin, response.status]).toEqual([origin, 200]);
    }
    for (const origin of [
      'null',
      'http://evil.example.com',
      'http://localhost.evil.com',
      'http://127.0.0.1.evil.com',
      'http://localhost@evil.com',
      `http://0.0.0.0:${t.port}`,
      'file://',
      'chrome-extension://abcdef',
      'ws://localhost',
      '',
    ]) {
      expect403(await rawInit({ origin }), `Origin ${origin}`);
    }
  });

  it('a foreign Host with a loopback Origin, and a loopback Host with a foreign Origin, are 403', async () => {
    expect403(
      await rawInit({ host: 'evil.example.com', origin: `http://localhost:${t.port}` }),
      'foreign Host',
    );
    expect403(
      await rawInit({ host: `localhost:${t.port}`, origin: 'http://evil.example.com' }),
      'foreign Origin',
    );
  });

  it('every route and method is checked; a refused DELETE leaves the session alive', async () => {
    const evil = { origin: 'http://evil.example.com' };
    const withSession = { ...evil, 'mcp-session-id': sessionId };
    expect403(
      await t.raw('GET', '/mcp', { accept: 'text/event-stream', ...withSession }),
      'GET /mcp',
    );
    expect403(await t.raw('DELETE', '/mcp', withSession), 'DELETE /mcp');
    expect403(await t.raw('GET', '/sse', { accept: 'text/event-stream', ...evil }), 'GET /sse');
    expect403(
      await t.raw(
        'POST',
        '/messages?sessionId=x',
        { 'content-type': 'application/json', ...evil },
        '{}',
      ),
      'POST /messages',
    );
    const ping = await t.post(t.message('ping'), { 'mcp-session-id': sessionId });
    expect(ping.status).toBe(200);
    expect(await ping.json()).toMatchObject({ result: {} });
  });
});

describe('session fixation', () => {
  let t: HttpTestApp;
  beforeEach(async () => {
    t = await createHttpApp(HTTP_OPTIONS, [SecurityTools]);
  });
  afterEach(() => t?.close());

  it('a client-chosen Mcp-Session-Id on initialize is ignored; on other requests it is 404', async () => {
    const chosen = 'attacker-chosen-session-id-0123456789abcdef';
    const response = await t.post(t.message('initialize', initializeParams()), {
      'mcp-session-id': chosen,
    });
    expect(response.status).toBe(200);
    const minted = response.headers.get('mcp-session-id');
    expect(minted).toBeTruthy();
    expect(minted).not.toBe(chosen);
    await response.json();
    const probe = await t.post(t.message('ping'), { 'mcp-session-id': chosen });
    expect(probe.status).toBe(404);
    expect(await probe.json()).toEqual(errorBody());
  });

  it("initialize carrying a victim's session id mints a new session; the victim's is untouched", async () => {
    const victim = await t.initialize('2025-11-25', { elicitation: {} });
    const stream = await t.openStandalone(victim.sessionId);
    await stream.at(0);
    const response = await t.post(t.message('initialize', initializeParams()), {
      'mcp-session-id': victim.sessionId,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).not.toBe(victim.sessionId);
    await response.json();

    // The victim's connection kept its state: it is still asked (elicitation capability) on
    // its own call's stream, and its standalone stream is still open.
    const call = new SseReader(
      await t.post(t.message('tools/call', { name: 'guarded', arguments: {} }), {
        'mcp-session-id': victim.sessionId,
      }),
    );
    const elicitation = await call.waitForMessage((m) => m.method === 'elicitation/create');
    await t.post(
      { jsonrpc: '2.0', id: elicitation.id, result: { action: 'decline' } },
      { 'mcp-session-id': victim.sessionId },
    );
    const answer = await call.waitForMessage((m) => m.result !== undefined);
    expect(answer.result.structuredContent.detail).toBe('user declined');
    let ended = false;
    void stream.ended.then(() => (ended = true));
    const ping = await t.post(t.message('ping'), { 'mcp-session-id': victim.sessionId });
    expect(await ping.json()).toMatchObject({ result: {} });
    expect(ended).toBe(false);
  });

  it('the id of a deleted session is never served again', async () => {
    const { sessionId } = await t.initialize();
    const deleted = await t.fetch('/mcp', {
      method: 'DELETE',
      headers: { 'mcp-session-id': sessionId },
    });
    expect(deleted.status).toBe(200);
    const again = await t.post(t.message('initialize', initializeParams()), {
      'mcp-session-id': sessionId,
    });
    expect(again.headers.get('mcp-session-id')).not.toBe(sessionId);
    await again.json();
    const probe = await t.post(t.message('ping'), { 'mcp-session-id': sessionId });
    expect(probe.status).toBe(404);
    await probe.json();
  });
});

describe('answers to elicitations: other sessions, forged ids, replays', () => {
  let t: HttpTestApp;
  beforeEach(async () => {
    runs.length = 0;
    t = await createHttpApp(HTTP_OPTIONS, [SecurityTools]);
  });
  afterEach(() => t?.close());

  /** POSTs a client answer (a JSON-RPC response) on `sessionId`; it must be accepted with 202. */
  async function answer(sessionId: string, id: unknown, result: object): Promise<void> {
    const response = await t.post({ jsonrpc: '2.0', id, result }, { 'mcp-session-id': sessionId });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
  }

  /** A's guarded call, read up to its elicitation. */
  async function parkOn(sessionId: string, id: number) {
    const call = new SseReader(
      await t.post(t.message('tools/call', { name: 'guarded', arguments: {} }, id), {
        'mcp-session-id': sessionId,
      }),
    );
    const elicitation = await call.waitForMessage((m) => m.method === 'elicitation/create');
    return { call, elicitation };
  }

  const APPROVE = { action: 'accept', content: { approve: true } };

  it("session B's answer to A's elicitation is ignored; A's own answer decides", async () => {
    const a = await t.initialize('2025-11-25', { elicitation: {} });
    const b = await t.initialize('2025-11-25', { elicitation: {} });
    const bStream = await t.openStandalone(b.sessionId);
    await bStream.at(0);
    const { call, elicitation } = await parkOn(a.sessionId, 1);

    await answer(b.sessionId, elicitation.id, APPROVE);
    // A's call is still parked (no response on its stream), and the tool did not run.
    const ping = await t.post(t.message('ping'), { 'mcp-session-id': a.sessionId });
    expect(await ping.json()).toMatchObject({ result: {} });
    expect(call.messages.filter((m) => m.id === 1)).toEqual([]);
    expect(runs).toEqual([]);

    await answer(a.sessionId, elicitation.id, { action: 'decline' });
    const response = await call.waitForMessage((m) => m.id === 1);
    expect(response.result.structuredContent).toEqual({
      error: 'authorization_required',
      tool: 'guarded',
      decision: 'ask',
      detail: 'user declined',
    });
    expect(runs).toEqual([]);
    // B never saw A's elicitation.
    expect(bStream.messages.filter((m) => m.method === 'elicitation/create')).toEqual([]);
  });

  it('forged ids are ignored; the real approval runs the tool once; a replay changes nothing', async () => {
    const a = await t.initialize('2025-11-25', { elicitation: {} });
    const { call, elicitation } = await parkOn(a.sessionId, 1);
    const realId = String(elicitation.id);
    expect(realId.length).toBeGreaterThanOrEqual(16);

    for (const forged of [
      realId.toUpperCase() === realId ? realId.toLowerCase() : realId.toUpperCase(),
      `${realId} `,
      realId.slice(0, -1),
      `${realId}x`,
      1, // the call's own request id
      '1',
    ]) {
      await answer(a.sessionId, forged, APPROVE);
    }
    const ping = await t.post(t.message('ping'), { 'mcp-session-id': a.sessionId });
    expect(await ping.json()).toMatchObject({ result: {} });
    expect(runs).toEqual([]);
    expect(call.messages.filter((m) => m.id === 1)).toEqual([]);

    await answer(a.sessionId, realId, APPROVE);
    const response = await call.waitForMessage((m) => m.id === 1);
    expect(response.result).toEqual({ content: [{ type: 'text', text: 'guarded ran' }] });
    expect(runs).toEqual(['guarded']);

    // Replaying the same approval, then against a new parked call: nothing runs.
    await answer(a.sessionId, realId, APPROVE);
    const second = await parkOn(a.sessionId, 2);
    expect(second.elicitation.id).not.toBe(realId);
    await answer(a.sessionId, realId, APPROVE);
    expect(runs).toEqual(['guarded']);
    await answer(a.sessionId, second.elicitation.id, { action: 'decline' });
    const denied = await second.call.waitForMessage((m) => m.id === 2);
    expect(denied.result.structuredContent.detail).toBe('user declined');
    expect(runs).toEqual(['guarded']);
    // The first call got exactly one response.
    expect(call.messages.filter((m) => m.id === 1)).toHaveLength(1);
  });
});

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
   * completion/complete itself is allowed. README ("How the seams behave"): completion on a
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
