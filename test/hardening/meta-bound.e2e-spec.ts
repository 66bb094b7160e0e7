import { Injectable } from '@nestjs/common';
import { McpTool } from '../../src/index.js';
import { countingObject } from '../support/counting-object.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import { jsonRpcProblems } from '../support/reliability-support.js';

/*
 * The argument bound covers a tools/call's `arguments` only: its `_meta`
 * (and any other params member) still reaches the params schema whole, which
 * copies it key by key. A _meta of 150 000 keys is read in full before
 * anything refuses it (over HTTP, 358 774 keys in _meta hold the event loop
 * about 270 ms in the params schema alone: the bench's "keys in _meta"). The
 * _meta here is a Proxy that counts every value read from it.
 */

@Injectable()
class EchoTools {
  @McpTool({ description: 'Echo', inputSchema: { type: 'object' } })
  echo() {
    return 'ran';
  }
}

describe('the shape bound and a call’s _meta', () => {
  let t: McpTestApp;
  afterEach(() => t?.close());

  it('150 000 keys in _meta past maxArgumentKeys 10 000: answered having read about as many as the bound (at most 10 100)', async () => {
    t = await createMcpApp({}, [EchoTools]);
    const { proxy, reads } = countingObject(150_000, 'm');
    const reply = await t.server.handleMessage({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'echo', arguments: {}, _meta: proxy },
    });
    expect(jsonRpcProblems(reply)).toEqual([]);
    expect(reads.count).toBeLessThanOrEqual(10_100);
  });
});
