import { Injectable } from '@nestjs/common';
import { McpTool } from '../../src/index.js';
import { createHttpApp, type HttpTestApp } from '../support/http-app.js';

/*
 * A tool whose result JSON cannot carry (a BigInt, or a toJSON that throws: JSON.stringify throws
 * on both) gets an isError result that says so, answered like any other; the call is not left unanswered, and the
 * server goes on serving.
 */

@Injectable()
class OddResults {
  @McpTool({ description: 'Returns a BigInt in its structured content', input: { type: 'object' } })
  big() {
    return { content: [{ type: 'text', text: 'x' }], structuredContent: { n: 10n } };
  }

  @McpTool({ description: 'Returns a value whose toJSON throws', input: { type: 'object' } })
  unwritable() {
    const odd = {
      toJSON() {
        throw new Error('not today');
      },
    };
    return { content: [{ type: 'text', text: 'x' }], structuredContent: { odd } };
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

  it('an app that gave BigInt a toJSON has its BigInt results sent', async () => {
    const prototype = BigInt.prototype as { toJSON?: () => string };
    prototype.toJSON = function (this: bigint) {
      return this.toString();
    };
    try {
      const { sessionId } = await t.initialize();
      const response = await t.post(t.message('tools/call', { name: 'big', arguments: {} }), {
        'mcp-session-id': sessionId,
      });
      const body = (await response.json()) as { result: { structuredContent: unknown } };
      expect(body.result.structuredContent).toEqual({ n: '10' });
    } finally {
      delete prototype.toJSON;
    }
  });

  it('a result whose toJSON throws is an isError result too, never a hang', async () => {
    const { sessionId } = await t.initialize();
    const response = await t.post(t.message('tools/call', { name: 'unwritable', arguments: {} }), {
      'mcp-session-id': sessionId,
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { result: unknown }).result).toEqual({
      content: [{ type: 'text', text: 'Tool unwritable produced a result that is not JSON' }],
      isError: true,
    });
  });
});
