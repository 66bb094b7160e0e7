import { Injectable } from '@nestjs/common';
import { filter, firstValueFrom } from 'rxjs';
import { McpTool, type Authorizer, type McpAuditEvent, type McpToolContext } from '../src/index.js';
import { createMcpApp, type McpTestApp } from './support/mcp-test-app.js';
import { listen } from './support/outbound.js';

const runs: string[] = [];

@Injectable()
class Tools {
  @McpTool({ description: 'Drop a table', annotations: { destructiveHint: true } })
  drop() {
    runs.push('drop');
    return 'dropped';
  }

  @McpTool({ description: 'Ask the user for a name' })
  async greet(_args: object, ctx: McpToolContext) {
    const answer = await ctx.elicit('Your name?', {
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
    });
    return answer.action === 'accept' ? `Hello ${String(answer.content?.name)}` : 'No name';
  }

  @McpTool({ description: 'Send the user to a page' })
  async link(_args: object, ctx: McpToolContext) {
    const answer = await ctx.elicitUrl('Sign in there', 'https://example.com/connect');
    return `user ${answer.action}`;
  }

  @McpTool({ description: 'List the client roots' })
  async roots(_args: object, ctx: McpToolContext) {
    const { roots } = await ctx.listRoots();
    return roots.map((root) => root.uri).join(',');
  }

  @McpTool({ description: 'Sample the model' })
  async think(_args: object, ctx: McpToolContext) {
    const result = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
      maxTokens: 10,
    });
    return `model said ${(result.content as { text: string }).text}`;
  }
}

const policy: Authorizer = (name) =>
  name === 'drop' ? { kind: 'ask', prompt: 'Drop it?' } : { kind: 'allow' };

type Msg = Record<string, any>;

/** Subscribes `connId`, initializes it with `capabilities`, and records what it receives. */
async function connect(t: McpTestApp, connId: string, capabilities: object) {
  const { messages: received, subscription, next } = listen(t.server, connId);
  await t.initialize(connId, capabilities);
  return { received, subscription, next };
}

const isElicit = (m: Msg) => m.method === 'elicitation/create';
const callMsg = (id: number, name: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {} },
});
const denial = (detail: string) => ({
  content: [
    {
      type: 'text',
      text: JSON.stringify({
        error: 'authorization_required',
        tool: 'drop',
        decision: 'ask',
        detail,
      }),
    },
  ],
  structuredContent: { error: 'authorization_required', tool: 'drop', decision: 'ask', detail },
  isError: true,
});

describe('ask → elicitation', () => {
  let t: McpTestApp;

  beforeEach(async () => {
    runs.length = 0;
    t = await createMcpApp({ authorizer: policy, elicitationTimeoutMs: 200 }, [Tools]);
  });
  afterEach(() => t.close());

  it('parks the call, asks the owner only, and runs the tool on approval', async () => {
    const a = await connect(t, 'a', { elicitation: {} });
    const b = await connect(t, 'b', { elicitation: {} });
    const asked = a.next(isElicit);
    expect(await t.server.handleMessage(callMsg(7, 'drop'), 'a')).toBeNull();
    const request = await asked;
    expect(request.id).toEqual(expect.any(String));
    expect(request.id.length).toBeGreaterThanOrEqual(16);
    expect(request.params).toEqual({
      message: 'Drop it?',
      requestedSchema: {
        type: 'object',
        properties: { approve: { type: 'boolean', description: 'Approve running the drop tool' } },
        required: ['approve'],
      },
    });
    expect(b.received.filter(isElicit)).toEqual([]);
    expect(runs).toEqual([]);

    const response = a.next((m) => m.id === 7);
    const answer = {
      jsonrpc: '2.0',
      id: request.id,
      result: { action: 'accept', content: { approve: true } },
    };
    expect(await t.server.handleMessage(answer, 'a')).toBeNull();
    expect((await response).result).toEqual({ content: [{ type: 'text', text: 'dropped' }] });
    expect(runs).toEqual(['drop']);

    // A duplicate approval is ignored: the tool ran exactly once.
    await t.server.handleMessage(answer, 'a');
    expect(await t.request('ping', undefined, 'a')).toEqual({
      jsonrpc: '2.0',
      id: expect.any(Number),
      result: {},
    });
    expect(runs).toEqual(['drop']);
    expect(a.received.filter((m) => m.id === 7)).toHaveLength(1);
  });

  it.each([
    [{ action: 'decline' }, 'user declined'],
    [{ action: 'cancel' }, 'user cancelled'],
    [{ action: 'accept', content: { approve: false } }, 'user did not approve'],
    [{ action: 'accept', content: { approve: 'yes' } }, 'user did not approve'],
  ])('answer %p denies with "%s"', async (result, detail) => {
    const a = await connect(t, 'a', { elicitation: {} });
    const asked = a.next(isElicit);
    await t.server.handleMessage(callMsg(1, 'drop'), 'a');
    const request = await asked;
    const response = a.next((m) => m.id === 1);
    await t.server.handleMessage({ jsonrpc: '2.0', id: request.id, result }, 'a');
    expect((await response).result).toEqual(denial(detail));
    expect(runs).toEqual([]);
  });

  it('an error reply denies with "elicitation failed"', async () => {
    const a = await connect(t, 'a', { elicitation: {} });
    const asked = a.next(isElicit);
    await t.server.handleMessage(callMsg(1, 'drop'), 'a');
    const request = await asked;
    const response = a.next((m) => m.id === 1);
    await t.server.handleMessage(
      { jsonrpc: '2.0', id: request.id, error: { code: -1, message: 'no' } },
      'a',
    );
    expect((await response).result).toEqual(denial('elicitation failed'));
  });

  it('silence times out into "elicitation timed out"', async () => {
    const a = await connect(t, 'a', { elicitation: {} });
    const response = a.next((m) => m.id === 1);
    await t.server.handleMessage(callMsg(1, 'drop'), 'a');
    expect((await response).result).toEqual(denial('elicitation timed out'));
    expect(runs).toEqual([]);
  });

  it('ignores answers from another connection and forged ids', async () => {
    const a = await connect(t, 'a', { elicitation: {} });
    await connect(t, 'b', { elicitation: {} });
    const asked = a.next(isElicit);
    await t.server.handleMessage(callMsg(1, 'drop'), 'a');
    const request = await asked;
    const approve = { action: 'accept', content: { approve: true } };
    expect(
      await t.server.handleMessage({ jsonrpc: '2.0', id: request.id, result: approve }, 'b'),
    ).toBeNull();
    expect(
      await t.server.handleMessage(
        { jsonrpc: '2.0', id: 'forged-id-000000', result: approve },
        'a',
      ),
    ).toBeNull();
    // Still parked: the timeout, not the foreign approval, closes it.
    const response = await a.next((m) => m.id === 1);
    expect(response.result).toEqual(denial('elicitation timed out'));
    expect(runs).toEqual([]);
  });

  it('a client without the elicitation capability gets the ask deny at once', async () => {
    await connect(t, 'a', {});
    const reply = (await t.server.handleMessage(callMsg(1, 'drop'), 'a')) as Msg;
    expect(reply.result).toEqual(denial('Drop it?'));
  });

  it('a call cancelled while parked never runs and gets no response', async () => {
    const a = await connect(t, 'a', { elicitation: {} });
    const asked = a.next(isElicit);
    await t.server.handleMessage(callMsg(1, 'drop'), 'a');
    const request = await asked;
    await t.server.handleMessage(
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      'a',
    );
    await t.server.handleMessage(
      { jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: { approve: true } } },
      'a',
    );
    expect(await t.request('ping', undefined, 'a')).toMatchObject({ result: {} });
    expect(runs).toEqual([]);
    expect(a.received.filter((m) => m.id === 1)).toEqual([]);
  });

  it('closing the connection closes its parked calls; a re-subscribe starts clean', async () => {
    const closed = firstValueFrom(
      t.server.audit$.pipe(filter((e: McpAuditEvent) => e.seam === 'elicitation')),
    );
    const a = await connect(t, 'a', { elicitation: {} });
    const asked = a.next(isElicit);
    await t.server.handleMessage(callMsg(1, 'drop'), 'a');
    const request = await asked;
    a.subscription.unsubscribe();
    expect(await closed).toMatchObject({
      decision: 'deny',
      detail: 'connection closed',
      name: 'drop',
    });
    const again = t.server.subscribe('a').subscribe();
    // The old answer matches nothing now; the new connection has no elicitation capability.
    await t.server.handleMessage(
      { jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: { approve: true } } },
      'a',
    );
    const reply = (await t.server.handleMessage(callMsg(2, 'drop'), 'a')) as Msg;
    expect(reply.result).toEqual(denial('Drop it?'));
    expect(runs).toEqual([]);
    again.unsubscribe();
  });

  it('closes concurrent asks independently, each with its own call id', async () => {
    const a = await connect(t, 'a', { elicitation: {} });
    for (const id of [11, 12]) await t.server.handleMessage(callMsg(id, 'drop'), 'a');
    const prompts = a.received.filter(isElicit);
    expect(prompts).toHaveLength(2);
    expect(prompts[0].id).not.toBe(prompts[1].id);
    const first = a.next((m) => m.id === 11);
    const second = a.next((m) => m.id === 12);
    const reply = (id: string, result: object) =>
      t.server.handleMessage({ jsonrpc: '2.0', id, result }, 'a');
    await reply(prompts[1].id, { action: 'decline' });
    await reply(prompts[0].id, { action: 'accept', content: { approve: true } });
    expect((await first).result).toEqual({ content: [{ type: 'text', text: 'dropped' }] });
    expect((await second).result).toEqual(denial('user declined'));
    expect(runs).toEqual(['drop']);
  });

  it('past the bound of parked calls per connection, an ask denies with a clear detail', async () => {
    const a = await connect(t, 'a', { elicitation: {} });
    for (let id = 1; id <= 64; id++) {
      expect(await t.server.handleMessage(callMsg(id, 'drop'), 'a')).toBeNull();
    }
    const reply = (await t.server.handleMessage(callMsg(65, 'drop'), 'a')) as Msg;
    expect(reply.result).toEqual(denial('too many calls awaiting approval'));
    // Another connection is not affected by this one's bound.
    const b = await connect(t, 'b', { elicitation: {} });
    expect(await t.server.handleMessage(callMsg(1, 'drop'), 'b')).toBeNull();
    expect(b.received.filter(isElicit)).toHaveLength(1);
    expect(a.received.filter(isElicit)).toHaveLength(64);
  });

  it('tells the client to drop an elicitation that timed out', async () => {
    const a = await connect(t, 'a', { elicitation: {} });
    const asked = a.next(isElicit);
    const dropped = a.next((m) => m.method === 'notifications/cancelled');
    await t.server.handleMessage(callMsg(1, 'drop'), 'a');
    const request = await asked;
    expect((await dropped).params).toEqual({
      requestId: request.id,
      reason: 'elicitation/create timed out',
    });
  });

  it('ctx.elicit round-trips on the caller connection, tagged with the call', async () => {
    const a = await connect(t, 'a', { elicitation: {} });
    const asked = a.next(isElicit);
    const call = t.server.handleMessage(callMsg(3, 'greet'), 'a');
    const request = await asked;
    expect(request.params.message).toBe('Your name?');
    await t.server.handleMessage(
      { jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: { name: 'Ada' } } },
      'a',
    );
    expect(((await call) as Msg).result).toEqual({
      content: [{ type: 'text', text: 'Hello Ada' }],
    });
  });

  it('ctx.elicit without the capability is a clear tool error, and nothing is sent', async () => {
    const a = await connect(t, 'a', {});
    const reply = (await t.server.handleMessage(callMsg(3, 'greet'), 'a')) as Msg;
    expect(reply.result).toEqual({
      content: [{ type: 'text', text: 'The client did not declare the elicitation capability' }],
      isError: true,
    });
    expect(a.received.filter(isElicit)).toEqual([]);
  });

  it('ctx.elicitUrl sends a URL-mode elicitation to a client that declared it', async () => {
    const a = await connect(t, 'a', { elicitation: { url: {} } });
    const asked = a.next(isElicit);
    const call = t.server.handleMessage(callMsg(5, 'link'), 'a');
    const request = await asked;
    expect(request.params).toEqual({
      mode: 'url',
      message: 'Sign in there',
      url: 'https://example.com/connect',
      elicitationId: expect.any(String),
    });
    await t.server.handleMessage(
      { jsonrpc: '2.0', id: request.id, result: { action: 'accept' } },
      'a',
    );
    expect(((await call) as Msg).result).toEqual({
      content: [{ type: 'text', text: 'user accept' }],
    });
  });

  it('never uses a mode the client did not declare', async () => {
    const formOnly = await connect(t, 'a', { elicitation: {} });
    const link = (await t.server.handleMessage(callMsg(1, 'link'), 'a')) as Msg;
    expect(link.result).toEqual({
      content: [{ type: 'text', text: 'The client did not declare URL-mode elicitation' }],
      isError: true,
    });
    const urlOnly = await connect(t, 'b', { elicitation: { url: {} } });
    // A URL-only client cannot be asked for approval (a form), so the ask denies at once.
    const drop = (await t.server.handleMessage(callMsg(2, 'drop'), 'b')) as Msg;
    expect(drop.result).toEqual(denial('Drop it?'));
    expect([...formOnly.received, ...urlOnly.received].filter(isElicit)).toEqual([]);
  });

  it('ctx.listRoots asks the caller for its roots', async () => {
    const a = await connect(t, 'a', { roots: {} });
    const asked = a.next((m) => m.method === 'roots/list');
    const call = t.server.handleMessage(callMsg(6, 'roots'), 'a');
    const request = await asked;
    const roots = { roots: [{ uri: 'file:///a' }, { uri: 'file:///b' }] };
    await t.server.handleMessage({ jsonrpc: '2.0', id: request.id, result: roots }, 'a');
    expect(((await call) as Msg).result).toEqual({
      content: [{ type: 'text', text: 'file:///a,file:///b' }],
    });
  });

  it('ctx.sample sends sampling/createMessage and returns the answer', async () => {
    const a = await connect(t, 'a', { sampling: {} });
    const asked = a.next((m) => m.method === 'sampling/createMessage');
    const call = t.server.handleMessage(callMsg(4, 'think'), 'a');
    const request = await asked;
    const answer = { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' };
    await t.server.handleMessage({ jsonrpc: '2.0', id: request.id, result: answer }, 'a');
    expect(((await call) as Msg).result).toEqual({
      content: [{ type: 'text', text: 'model said ok' }],
    });
  });
});

describe('McpServer.stats()', () => {
  it('counts connections, in-flight requests and pending client requests, back to zero after', async () => {
    const t = await createMcpApp({ authorizer: policy }, [Tools]);
    try {
      const a = await connect(t, 'a', { elicitation: {} });
      const asked = a.next(isElicit);
      await t.server.handleMessage(callMsg(1, 'drop'), 'a');
      const request = await asked;
      expect(t.server.stats()).toEqual({ connections: 1, inFlight: 1, pendingClientRequests: 1 });
      const done = a.next((m) => m.id === 1);
      await t.server.handleMessage(
        { jsonrpc: '2.0', id: request.id, result: { action: 'decline' } },
        'a',
      );
      await done;
      a.subscription.unsubscribe();
      expect(t.server.stats()).toEqual({ connections: 0, inFlight: 0, pendingClientRequests: 0 });
    } finally {
      await t.close();
    }
  });
});
