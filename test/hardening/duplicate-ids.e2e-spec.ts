import { aborted } from 'node:util';
import { Injectable } from '@nestjs/common';
import { McpTool, type McpToolContext } from '../../src/index.js';
import { deferred } from '../support/deferred.js';
import { HTTP_VARIANTS, createHttpApp, type HttpTestApp } from '../support/http-app.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import { listen } from '../support/outbound.js';

/* One id, one request in flight: a reused id is refused, never run beside the first. */

@Injectable()
class HoldingTools {
  runs = 0;
  release = deferred();
  started = deferred();

  @McpTool({ description: 'Holds until released or cancelled', input: { type: 'object' } })
  async hold(_args: object, ctx: McpToolContext) {
    this.runs++;
    this.started.resolve();
    await Promise.race([
      this.release.promise,
      aborted(ctx.signal, ctx.signal).then(() => {
        throw new Error('x');
      }),
    ]);
    return 'released';
  }
}

const call = (id: number | string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'hold', arguments: {} },
});

describe('duplicate in-flight ids, in process', () => {
  let t: McpTestApp;
  afterEach(() => t?.close());

  it('300 concurrent calls reusing one id: one runs, 299 get -32600 with that id, stats counts 1, a cancel reaches the one', async () => {
    t = await createMcpApp({}, [HoldingTools]);
    const tools = t.app.get(HoldingTools);
    const out = listen(t.server, 'c');
    await t.initialize('c');
    const first = t.server.handleMessage(call(9), 'c');
    const rest = await Promise.all(
      Array.from({ length: 299 }, () => t.server.handleMessage(call(9), 'c')),
    );
    for (const response of rest) {
      expect(response).toEqual({
        jsonrpc: '2.0',
        id: 9,
        error: { code: -32600, message: expect.stringContaining('already in flight') },
      });
    }
    expect(tools.runs).toBe(1);
    expect(t.server.stats().inFlight).toBe(1);
    await t.server.handleMessage(
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } },
      'c',
    );
    expect(await first).toBeNull(); // cancelled: no response at all
    expect(t.server.stats().inFlight).toBe(0);
    out.subscription.unsubscribe();
  });

  it('once the first has answered, the id may be used again', async () => {
    t = await createMcpApp({}, [HoldingTools]);
    const tools = t.app.get(HoldingTools);
    tools.release.resolve();
    const out = listen(t.server, 'c');
    await t.initialize('c');
    expect((await t.server.handleMessage(call(1), 'c')) as object).toMatchObject({ result: {} });
    expect((await t.server.handleMessage(call(1), 'c')) as object).toMatchObject({ result: {} });
    expect(tools.runs).toBe(2);
    out.subscription.unsubscribe();
  });

  it('a 2025-03-26 batch: initialize inside it is refused and does not reset the session', async () => {
    t = await createMcpApp({}, [HoldingTools]);
    const out = listen(t.server, 'b');
    await t.initialize('b', { elicitation: {} }, '2025-03-26');
    const replies = (await t.server.handleMessage(
      [
        {
          jsonrpc: '2.0',
          id: 'again',
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'x', version: '1' },
          },
        },
        { jsonrpc: '2.0', id: 'p', method: 'ping' },
      ],
      'b',
    )) as object[];
    expect(replies).toEqual([
      {
        jsonrpc: '2.0',
        id: 'again',
        error: { code: -32600, message: 'Invalid Request: initialize cannot be batched' },
      },
      { jsonrpc: '2.0', id: 'p', result: {} },
    ]);
    // Still the 2025-03-26 session it was: batches are still accepted.
    expect(
      await t.server.handleMessage([{ jsonrpc: '2.0', id: 'q', method: 'ping' }], 'b'),
    ).toEqual([{ jsonrpc: '2.0', id: 'q', result: {} }]);
    out.subscription.unsubscribe();
  });

  it('a batch repeating an id gets every reply: the repeat is -32600', async () => {
    t = await createMcpApp({}, [HoldingTools]);
    t.app.get(HoldingTools).release.resolve();
    const out = listen(t.server, 'b');
    await t.initialize('b', {}, '2025-03-26');
    const replies = (await t.server.handleMessage([call('x'), call('x')], 'b')) as any[];
    expect(replies).toHaveLength(2);
    expect(replies.map((r) => (r.error ? r.error.code : 'result'))).toEqual(['result', -32600]);
    expect(replies.every((r) => r.id === 'x')).toBe(true);
    out.subscription.unsubscribe();
  });
});

describe.each(HTTP_VARIANTS)('duplicate in-flight ids over Streamable HTTP on %s', (adapter) => {
  let t: HttpTestApp;
  afterEach(() => t?.close());

  it('a POST reusing the id of a call still running on the session is 400 -32600 naming it; the first still answers', async () => {
    t = await createHttpApp({}, [HoldingTools], adapter);
    const tools = t.app.get(HoldingTools);
    const { sessionId } = await t.initialize();
    const first = t.post(call(5), { 'mcp-session-id': sessionId });
    await tools.started.promise;
    const second = await t.post(call(5), { 'mcp-session-id': sessionId });
    expect(second.status).toBe(400);
    expect(await second.json()).toEqual({
      jsonrpc: '2.0',
      id: 5,
      error: { code: -32600, message: expect.stringContaining('already in flight') },
    });
    tools.release.resolve();
    const answered = await (await first).json();
    expect(answered).toMatchObject({
      id: 5,
      result: { content: [{ type: 'text', text: 'released' }] },
    });
    expect(tools.runs).toBe(1);
  });
});
