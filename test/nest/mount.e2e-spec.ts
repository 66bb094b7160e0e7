import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ADAPTERS, bootNativeApp, type NativeApp } from './nest-app.fixture.js';
import { initializeParams } from '../support/http-app.js';

const ACCEPT = 'application/json, text/event-stream';
const API_KEY = { 'x-api-key': 'k' };
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams() };

function post(url: string, body: string, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
    body,
  });
}

async function session(app: NativeApp): Promise<Record<string, string>> {
  const response = await post(`${app.base}/api/mcp`, JSON.stringify(INIT));
  const id = response.headers.get('mcp-session-id')!;
  const headers = { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
  const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
  expect((await post(`${app.base}/api/mcp`, initialized, headers)).status).toBe(202);
  return headers;
}

describe.each(ADAPTERS)('the MCP endpoints are Nest routes (%s)', (adapter) => {
  let app: NativeApp;

  beforeAll(async () => {
    app = await bootNativeApp(adapter);
  });
  afterAll(() => app.app.close());

  it('the global prefix applies: /api/mcp serves MCP and /mcp is not a route', async () => {
    const served = await post(`${app.base}/api/mcp`, JSON.stringify(INIT));
    expect(served.status).toBe(200);
    expect(((await served.json()) as any).result.serverInfo.name).toBe('nest-native');
    expect((await post(`${app.base}/mcp`, JSON.stringify(INIT))).status).toBe(404);
  });

  it('app.use() middleware and MiddlewareConsumer middleware run on /mcp', async () => {
    app.seen.length = 0;
    const response = await post(`${app.base}/api/mcp`, JSON.stringify(INIT));
    expect(response.status).toBe(200);
    expect(app.seen).toEqual(['/api/mcp']);
    expect(response.headers.get('x-module-middleware')).toBe('seen');
  });

  it('CORS applies: the preflight is answered and responses carry the allowed origin', async () => {
    const preflight = await fetch(`${app.base}/api/mcp`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-session-id',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const response = await post(`${app.base}/api/mcp`, JSON.stringify(INIT), {
      origin: 'http://localhost:5173',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(response.headers.get('access-control-expose-headers')).toMatch(/mcp-session-id/i);
  });

  it("the app's body parser neither cuts MCP bodies (300 kB arguments) nor is off for its own routes", async () => {
    const headers = await session(app);
    const text = 'x'.repeat(300_000);
    const call = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text } },
    };
    const response = await post(`${app.base}/api/mcp`, JSON.stringify(call), headers);
    expect(response.status).toBe(200);
    expect(((await response.json()) as any).result.content[0].text).toBe('length 300000');

    const own = await post(`${app.base}/api/notes`, JSON.stringify({ title: 'kept' }), API_KEY);
    expect(await own.json()).toEqual({ data: { saved: 'kept' } });
  });

  it('MCP bodies keep their own refusals: bad JSON is -32700, over the bound is 413', async () => {
    const bad = await post(`${app.base}/api/mcp`, '{not json');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.code).toBe(-32700);
    const huge = await post(
      `${app.base}/api/mcp`,
      JSON.stringify({ pad: 'x'.repeat(5 * 1024 * 1024) }),
    );
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as any).error.code).toBe(-32600);
  });

  it("the app's global HTTP guard and interceptor stay on its own routes, off the protocol", async () => {
    expect((await post(`${app.base}/api/notes`, JSON.stringify({ title: 't' }))).status).toBe(403);
    const served = await post(`${app.base}/api/mcp`, JSON.stringify(INIT));
    expect(served.status).toBe(200);
    const body = (await served.json()) as any;
    expect(body.jsonrpc).toBe('2.0');
    expect(body.result.serverInfo.name).toBe('nest-native');
  });

  it('the HTTP+SSE pair sits under the prefix and announces its messages path with it', async () => {
    const response = await fetch(`${app.base}/api/sse`, {
      headers: { accept: 'text/event-stream' },
    });
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('sessionId='))
      text += new TextDecoder().decode((await reader.read()).value);
    const path = /data: (\S+)/.exec(text.slice(text.indexOf('event: endpoint')))![1];
    expect(path).toMatch(/^\/api\/messages\?sessionId=/);
    const accepted = await post(`${app.base}${path}`, JSON.stringify(INIT));
    expect(accepted.status).toBe(202);
    await reader.cancel();
  });

  it('the official SDK client lists and calls a tool through the prefixed endpoint', async () => {
    const client = new Client({ name: 'sdk', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.base}/api/mcp`)));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);
    const result = await client.callTool({ name: 'echo', arguments: { text: 'abc' } });
    expect(result.content).toEqual([{ type: 'text', text: 'length 3' }]);
    await client.close();
  });
});
