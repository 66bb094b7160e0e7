import 'reflect-metadata';
import { generateKeyPairSync, sign } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpModule, McpWarden } from 'mcp-warden';
import { McpTestClient } from 'mcp-warden/testing';
import { AddTools } from './add.tools.js';
import { AppModule } from './app.module.js';
import { createHttpApp } from './http-app.js';
import { mcpOptions } from './mcp-options.js';

/*
 * The app's own tests, in the runner its Nest CLI generated (Jest with ts-jest for Nest 11,
 * Vitest for Nest 12), with the globals both give: the testing module, `McpTestClient` from
 * `mcp-warden/testing`, and the HTTP app on a free port with bearer tokens (which loads the
 * package's token code inside the runner too).
 */
const call = (args: object) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'add', arguments: args },
});

const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'pack-check', version: '1.0.0' },
  },
};

function testingModule() {
  return Test.createTestingModule({
    imports: [McpModule.forRoot({ ...mcpOptions(), transport: 'unknown' })],
    providers: [AddTools],
  }).compile();
}

describe('the app in its testing module', () => {
  it('serves tools/call through McpWarden.handleMessage', async () => {
    const app = await (await testingModule()).init();
    try {
      const server = app.get(McpWarden);
      const ok = (await server.handleMessage(call({ a: 2, b: 3 }))) as { result: object };
      expect(ok.result).toMatchObject({ structuredContent: { sum: 5 } });
      // The DTO's rules come from the app's own class-validator: a bad argument is a tool error.
      const bad = (await server.handleMessage(call({ a: 'two', b: 3 }))) as { result: object };
      expect(bad.result).toMatchObject({ isError: true });
    } finally {
      await app.close();
    }
  });

  it('lists and calls the tool with McpTestClient from mcp-warden/testing', async () => {
    const app = await (await testingModule()).init();
    const client = await McpTestClient.connect(app, {
      principal: { subject: 'pack-check', scopes: [] },
    });
    try {
      expect((await client.listTools()).map((tool) => tool.name)).toEqual(['add']);
      expect((await client.callTool('add', { a: 2, b: 3 })).structuredContent).toEqual({
        sum: 5,
      });
      expect((await client.callTool('add', { a: 'two', b: 3 })).isError).toBe(true);
    } finally {
      await client.close();
      await app.close();
    }
  });
});

describe('the app over HTTP, with bearer tokens', () => {
  const issuer = 'https://issuer.pack-check.test';
  const audience = 'https://mcp.pack-check.test/api/mcp';
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'ES256', use: 'sig' };
  let app: INestApplication;
  let base: string;

  /** An ES256 access token for `sub`, signed with the test's key. */
  function token(sub: string): string {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: issuer, aud: audience, sub, iat: now, exp: now + 300 };
    const input = `${part({ alg: 'ES256', kid: 'k1', typ: 'JWT' })}.${part(claims)}`;
    const signature = sign('sha256', Buffer.from(input), {
      key: privateKey,
      dsaEncoding: 'ieee-p1363',
    });
    return `${input}.${signature.toString('base64url')}`;
  }

  function post(body: object, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${base}/api/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        ...headers,
      },
      body: JSON.stringify(body),
    });
  }

  beforeAll(async () => {
    app = await createHttpApp(AppModule.forRoot({ issuer, audience, jwks: { keys: [jwk] } }));
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(() => app?.close());

  it('refuses a call without a token, with the challenge and the app middleware ran', async () => {
    const response = await post(initialize);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('resource_metadata=');
    expect(response.headers.get('x-request-tag')).toBe('pack-check');
  });

  it('serves the protected resource metadata the challenge names', async () => {
    const challenge = (await post(initialize)).headers.get('www-authenticate') ?? '';
    const named = new URL(/resource_metadata="([^"]+)"/.exec(challenge)?.[1] ?? '', base);
    const response = await fetch(`${base}${named.pathname}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ resource: audience });
  });

  it('serves tools/call for a verified token under the global prefix', async () => {
    const auth = { authorization: `Bearer ${token('alice')}` };
    const init = await post(initialize, auth);
    expect(init.status).toBe(200);
    const session = init.headers.get('mcp-session-id') ?? '';
    await init.text();
    const headers = { ...auth, 'mcp-session-id': session };
    expect(
      (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status,
    ).toBe(202);
    const reply = await post(call({ a: 2, b: 3 }), headers);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-request-tag')).toBe('pack-check');
    expect(await reply.text()).toContain('"sum":5');
  });
});
