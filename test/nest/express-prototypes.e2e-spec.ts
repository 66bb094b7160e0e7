import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import { bootNativeApp, type NativeApp } from './nest-app.fixture.js';

/** Node 22's V8: the one on which requests are built on Express's prototypes (express-prototypes.ts). */
const BUILT_ON_EXPRESS = Number.parseInt(process.versions.v8, 10) === 12;

/**
 * A Nest app on Express with a middleware and CORS in front of its MCP routes, so every MCP
 * request goes through Express, as an app with `helmet()` or a logger in front would have it.
 */
describe('requests through Express, built on its prototypes where the V8 pays for moving them', () => {
  let app: NativeApp;
  let built: { request: object | null; response: object | null }[];
  let express: { request: object; response: object };

  beforeAll(async () => {
    app = await bootNativeApp('express');
    express = app.app.getHttpAdapter().getInstance();
    built = [];
    // In front of the app's own listener: what the server built, before Express saw it.
    (app.app.getHttpServer() as Server).prependListener('request', (req, res) => {
      built.push({ request: Object.getPrototypeOf(req), response: Object.getPrototypeOf(res) });
    });
  });

  afterAll(() => app.app.close());

  it('the official SDK client calls a tool through Express, its middleware running', async () => {
    const client = new Client({ name: 'sdk', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.base}/api/mcp`)));
    const result = await client.callTool({ name: 'echo', arguments: { text: 'abc' } });
    expect(result.content).toEqual([{ type: 'text', text: 'length 3' }]);
    await client.close();
    expect(app.seen.filter((url) => url === '/api/mcp').length).toBeGreaterThanOrEqual(2);
  });

  it("the app's own route keeps Express's request and response: its parser, guard and interceptor", async () => {
    const response = await fetch(`${app.base}/api/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
      body: JSON.stringify({ title: 'kept' }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-powered-by')).toBe('Express');
    expect(response.headers.get('x-module-middleware')).toBe('seen');
    expect(await response.json()).toEqual({ data: { saved: 'kept' } });
  });

  it("every request was built on the app's prototypes on Node 22, on Node's own elsewhere", async () => {
    built.length = 0;
    const client = new Client({ name: 'sdk', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.base}/api/mcp`)));
    await client.listTools();
    await client.close();
    await fetch(`${app.base}/api/notes`, { method: 'POST', headers: { 'x-api-key': 'k' } });
    expect(built.length).toBeGreaterThanOrEqual(3);
    for (const each of built) {
      expect(each.request).toBe(BUILT_ON_EXPRESS ? express.request : IncomingMessage.prototype);
      expect(each.response).toBe(BUILT_ON_EXPRESS ? express.response : ServerResponse.prototype);
    }
  });
});
