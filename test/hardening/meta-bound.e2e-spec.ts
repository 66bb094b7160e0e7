import { Injectable } from '@nestjs/common';
import { McpTool } from '../../src/index.js';
import { countingObject } from '../support/counting-object.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import { jsonRpcProblems } from '../support/reliability-support.js';

/*
 * A tools/call's `_meta` is held to the same shape bound as its arguments, in
 * the one bounded pass that runs before the params schema (which would copy
 * it key by key): a _meta past limits.maxArgumentKeys is refused with -32602
 * naming the bound, having read about as many keys as the bound, and the tool
 * never runs. The _meta here is a Proxy that counts every value read from it.
 */

@Injectable()
class EchoTools {
  runs = 0;

  @McpTool({ description: 'Echo', inputSchema: { type: 'object' } })
  echo() {
    this.runs++;
    return 'ran';
  }
}

describe('the shape bound and a call’s _meta', () => {
  let t: McpTestApp;
  afterEach(() => t?.close());

  it('150 000 keys in _meta past maxArgumentKeys 10 000: -32602 naming the bound, having read about as many as the bound (at most 10 100), and the tool never ran', async () => {
    t = await createMcpApp({}, [EchoTools]);
    const { proxy, reads } = countingObject(150_000, 'm');
    const reply = await t.server.handleMessage({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'echo', arguments: {}, _meta: proxy },
    });
    expect(jsonRpcProblems(reply)).toEqual([]);
    expect(reply).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32602,
        message: expect.stringMatching(/^Invalid params for tools\/call: .*more than 10000 keys/),
      },
    });
    expect(reads.count).toBeLessThanOrEqual(10_100);
    expect(t.app.get(EchoTools).runs).toBe(0);
  });
});
