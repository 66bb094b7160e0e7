import { Injectable } from '@nestjs/common';
import { McpTool } from '../../src/index.js';
import { createHttpApp, type HttpTestApp } from '../support/http-app.js';

/*
 * A tool whose result JSON cannot carry (a BigInt, which JSON.stringify throws on) gets an
 * isError result that says so, answered like any other; the call is not left unanswered, and the
 * server goes on serving.
 */

@Injectable()
class OddResults {
  @McpTool({ description: 'Returns a BigInt in its structured content', input: { type: 'object' } })
  big() {
    return { content: [{ type: 'text', text: 'x' }], structuredContent: { n: 10n } };
  }

  @McpTool({ description: 'Answers', input: { type: 'object' } })
  fine() {
    return 'fine';
  }
}

describe('a tool result that is not JSON', () => {
  let t: HttpTestApp;
  beforeAll(async () => {
    t = await createHttpApp({}, [OddResults]);
  });
  afterAll(() => t?.close());

  it('is answered with an isError result, and the next call is served', async () => {
    const { sessionId } = await t.initialize();
    const call = async (name: string) => {
      const response = await t.post(t.message('tools/call', { name, arguments: {} }), {
        'mcp-session-id': sessionId,
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { result: unknown }).result;
    };
    expect(await call('big')).toEqual({
      content: [{ type: 'text', text: 'Tool big produced a result that is not JSON' }],
      isError: true,
    });
    expect(await call('fine')).toEqual({ content: [{ type: 'text', text: 'fine' }] });
  });
});
