import { jest } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import { PassThrough } from 'node:stream';
import { McpStdioTransport, McpTool } from '../../src/index.js';
import { HTTP_VARIANTS, createHttpApp, type HttpTestApp } from '../support/http-app.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import { JsonLines } from '../support/json-lines.js';

/*
 * A body's shape is measured before JSON.parse builds it: over-bound
 * arguments are cut from the text (the call still gets the isError result
 * naming the bound), and a body past its own bounds (a batch of more messages
 * than may be in flight, too many values in all) is refused unparsed.
 */

@Injectable()
class ShapeTools {
  runs = 0;

  @McpTool({ description: 'Any object', input: { type: 'object' } })
  any() {
    this.runs++;
    return 'ran';
  }
}

const KEYS = 150_000;
/** A tools/call whose arguments hold KEYS keys (about 1.7 MB of text). */
const wideCall = (id: number) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"any","arguments":{${Array.from(
    { length: KEYS },
    (_, key) => `"k${key}":1`,
  ).join(',')}}}}`;
const refusedArguments = {
  content: [
    {
      type: 'text',
      text: 'Invalid arguments for tool any: the arguments hold more than 10000 keys and items',
    },
  ],
  isError: true,
};
const pings = (count: number) =>
  `[${Array.from({ length: count }, (_, id) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}`)}]`;
/** Five params members of 9 000 keys each: every one within its bound, 45 000 values in all. */
const manyMembers = `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"any",${Array.from(
  { length: 5 },
  (_, member) => `"m${member}":{${Array.from({ length: 9_000 }, (_, key) => `"k${key}":1`)}}`,
).join(',')}}}`;

/** Runs `work` while recording the longest text JSON.parse was handed. */
async function longestParsed<T>(work: () => Promise<T>): Promise<{ value: T; longest: number }> {
  const parse = JSON.parse;
  let longest = 0;
  const spy = jest.spyOn(JSON, 'parse').mockImplementation((text: string, reviver?: any) => {
    longest = Math.max(longest, String(text).length);
    return parse(text, reviver);
  });
  try {
    return { value: await work(), longest };
  } finally {
    spy.mockRestore();
  }
}

describe.each(HTTP_VARIANTS)('body shape over Streamable HTTP on %s', (adapter) => {
  let t: HttpTestApp;
  afterEach(() => t?.close());

  it(`${KEYS} argument keys: the isError result naming the bound, and the arguments never parsed`, async () => {
    t = await createHttpApp({}, [ShapeTools], adapter);
    const { sessionId } = await t.initialize();
    const { value: body, longest } = await longestParsed(async () => {
      const response = await t.post(wideCall(3), { 'mcp-session-id': sessionId });
      expect(response.status).toBe(200);
      return (await response.json()) as { id: number; result: unknown };
    });
    expect(body).toEqual({ jsonrpc: '2.0', id: 3, result: refusedArguments });
    expect(longest).toBeLessThan(1024);
    expect(t.app.get(ShapeTools).runs).toBe(0);
  });

  it('a 2025-03-26 batch of more messages than one connection may have in flight: 400, -32600, none served', async () => {
    t = await createHttpApp({ limits: { maxInFlightPerConnection: 16 } }, [ShapeTools], adapter);
    const { sessionId } = await t.initialize('2025-03-26');
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-03-26' };
    const refused = await t.post(pings(17), headers);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: a batch holds more than 16 messages' },
    });
    const served = await t.post(pings(16), headers);
    expect(served.status).toBe(200);
    expect(await served.json()).toHaveLength(16);
  });

  it('a body whose members are each within bounds but hold 45 000 values in all: 400, -32600', async () => {
    t = await createHttpApp({}, [ShapeTools], adapter);
    const { sessionId } = await t.initialize();
    const refused = await t.post(manyMembers, { 'mcp-session-id': sessionId });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: 'Invalid Request: the body holds more than 40000 keys and items',
      },
    });
    expect(t.app.get(ShapeTools).runs).toBe(0);
  });
});

describe('body shape over stdio', () => {
  let app: McpTestApp;
  afterEach(() => app?.close());

  it('over-bound arguments get the isError result, a too-large batch and a too-full body -32600, and the line after each is served', async () => {
    app = await createMcpApp({ transport: 'stdio' }, [ShapeTools]);
    const input = new PassThrough();
    const output = new JsonLines();
    const transport = new McpStdioTransport(app.server, { input, output });
    const running = transport.run();
    const init = {
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: {
        protocolVersion: '2025-03-26',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      },
    };
    input.write(`${JSON.stringify(init)}\n`);
    await output.count(1);
    const { longest } = await longestParsed(async () => {
      input.write(`${wideCall(1)}\n${pings(300)}\n${manyMembers}\n`);
      input.write('{"jsonrpc":"2.0","id":"after","method":"ping"}\n');
      await output.count(5);
    });
    const [, wide, batch, full, after] = output.messages;
    expect(wide).toEqual({ jsonrpc: '2.0', id: 1, result: refusedArguments });
    expect(batch).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: a batch holds more than 256 messages' },
    });
    expect(full.error).toEqual({
      code: -32600,
      message: 'Invalid Request: the body holds more than 40000 keys and items',
    });
    expect(after).toEqual({ jsonrpc: '2.0', id: 'after', result: {} });
    expect(longest).toBeLessThan(1024);
    expect(app.app.get(ShapeTools).runs).toBe(0);
    input.end();
    await running;
  });
});
