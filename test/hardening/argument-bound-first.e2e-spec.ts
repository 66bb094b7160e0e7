import { Injectable } from '@nestjs/common';
import { McpTool } from '../../src/index.js';
import { countingObject } from '../support/counting-object.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';

/*
 * "Refusing an absurd shape must cost no more than its bound": a call whose
 * arguments hold far more keys than limits.maxArgumentKeys is refused, as a
 * tool-execution error, having read at most about that many of them, and the
 * tool never runs. The bound's one bounded pass runs before the tools/call
 * params schema, which would copy `arguments` key by key and so read all
 * 150 000. The arguments here are a Proxy that counts every value read.
 */

@Injectable()
class AnyTools {
  runs = 0;

  @McpTool({ description: 'Any object', inputSchema: { type: 'object' } })
  any() {
    this.runs++;
    return 'ran';
  }
}

describe('the argument bound comes first', () => {
  let t: McpTestApp;
  afterEach(() => t?.close());

  it('150 000 keys past maxArgumentKeys 10 000: refused after reading about as many as the bound (at most 10 100), the tool never run', async () => {
    t = await createMcpApp({}, [AnyTools]);
    const { proxy, reads } = countingObject(150_000, 'k');
    const result = await t.callTool('any', proxy);
    expect(result).toEqual({
      content: [
        {
          type: 'text',
          text: 'Invalid arguments for tool any: the arguments hold more than 10000 keys and items',
        },
      ],
      isError: true,
    });
    expect(reads.count).toBeLessThanOrEqual(10_100);
    expect(t.app.get(AnyTools).runs).toBe(0);
  });
});
