import { Controller, Get, type INestApplication } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpHttpAuth, McpModule } from '../../src/index.js';
import { ADAPTERS, type AdapterName } from '../support/http-app.js';

/*
 * `@McpHttpAuth()` puts an application route behind the MCP endpoint's own
 * gate: the Host/Origin check, then the configured authentication, refused
 * exactly as /mcp refuses (status, challenge, JSON-RPC error body).
 */

@Controller('ops')
@McpHttpAuth()
class OpsController {
  @Get()
  status() {
    return { ok: true };
  }
}

/** Callers with `x-api-key: good` are ops; anyone else is nobody. */
const authenticate = (req: IncomingMessage) =>
  req.headers['x-api-key'] === 'good' ? { subject: 'ops', scopes: [] } : undefined;

describe.each(ADAPTERS)('@McpHttpAuth() on an app route (%s)', (adapter: AdapterName) => {
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        McpModule.forRoot({
          name: 'guarded-route',
          version: '1.0.0',
          transport: 'http',
          http: { authenticate },
          // The route guard is under test, not the seams: this app has none, and says so.
          requireAuthorization: false,
        }),
      ],
      controllers: [OpsController],
    }).compile();
    app =
      adapter === 'fastify'
        ? moduleRef.createNestApplication(new FastifyAdapter(), { logger: false })
        : moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(() => app?.close());

  it('serves an authenticated caller', async () => {
    const response = await fetch(`${base}/ops`, { headers: { 'x-api-key': 'good' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it('refuses an unauthenticated caller 401 with the same challenge as /mcp', async () => {
    const response = await fetch(`${base}/ops`, { headers: { 'x-api-key': 'bad' } });
    expect(response.status).toBe(401);
    const body = await response.json();
    expect(body).toMatchObject({ jsonrpc: '2.0', error: { message: 'Unauthorized' } });

    const mcp = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(mcp.status).toBe(401);
    // With a custom hook only (no `http.auth` audience) the metadata URL is read off the
    // request's own path; with bearer auth both name the audience (the service's suite checks).
    for (const refused of [response, mcp]) {
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="http/);
    }
  });

  it('refuses a foreign Origin 403 before authenticating', async () => {
    const response = await fetch(`${base}/ops`, {
      headers: { 'x-api-key': 'good', origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
  });
});
