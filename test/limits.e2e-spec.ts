import { aborted as whenAborted } from 'node:util';
import { Injectable } from '@nestjs/common';
import { McpTool, type Authorizer, type McpToolContext } from '../src/index.js';
import { deferred } from './support/deferred.js';
import { createMcpApp, type McpTestApp } from './support/mcp-test-app.js';

let gate = deferred();
const aborted: string[] = [];

@Injectable()
class SlowTools {
  @McpTool({ description: 'Never finishes on its own' })
  hang(_args: object, ctx: McpToolContext) {
    return whenAborted(ctx.signal, ctx.signal).then(() => {
      aborted.push(String((ctx.signal.reason as Error)?.message));
      throw ctx.signal.reason;
    });
  }

  @McpTool({ description: 'Waits for the test to open the gate' })
  async wait() {
    await gate.promise;
    return 'done';
  }

  @McpTool({ description: 'Returns at once' })
  quick() {
    return 'quick';
  }
}

describe('limits', () => {
  let t: McpTestApp;
  afterEach(() => t?.close());

  it('a tool that hangs past toolTimeoutMs ends with isError and its signal aborts', async () => {
    aborted.length = 0;
    t = await createMcpApp({ limits: { toolTimeoutMs: 100 } }, [SlowTools]);
    expect(await t.callTool('hang', {})).toEqual({
      content: [{ type: 'text', text: 'Tool hang timed out' }],
      isError: true,
    });
    expect(aborted).toEqual(['tool timed out']);
  });

  it('an authorizer that hangs past authorizerTimeoutMs denies', async () => {
    const hanging: Authorizer = () => new Promise(() => undefined);
    t = await createMcpApp({ authorizer: hanging, limits: { authorizerTimeoutMs: 100 } }, [
      SlowTools,
    ]);
    const result = await t.callTool('quick', {});
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      error: 'authorization_required',
      tool: 'quick',
      decision: 'deny',
      detail: 'authorizer_timeout',
    });
  });

  it('past maxInFlightPerConnection a request is refused with -31429; others are unaffected', async () => {
    gate = deferred();
    t = await createMcpApp({ limits: { maxInFlightPerConnection: 2 } }, [SlowTools]);
    const first = t.request('tools/call', { name: 'wait', arguments: {} }, 'a');
    const second = t.request('tools/call', { name: 'wait', arguments: {} }, 'a');
    const refused = await t.request('tools/call', { name: 'quick', arguments: {} }, 'a');
    expect(refused.error).toEqual({ code: -31429, message: 'Too many requests in flight' });
    // Another connection still works while this one is full.
    expect((await t.callTool('quick', {}, 'b')).content).toEqual([{ type: 'text', text: 'quick' }]);
    gate.resolve();
    expect((await first).result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect((await second).result.content).toEqual([{ type: 'text', text: 'done' }]);
    // Room again once the calls finished.
    expect((await t.callTool('quick', {}, 'a')).content).toEqual([{ type: 'text', text: 'quick' }]);
  });
});
