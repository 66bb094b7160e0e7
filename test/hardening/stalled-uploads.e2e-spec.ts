import type { INestApplication } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Authorizers, McpModule } from '../../src/index.js';
import { McpWebhookLinks } from '../../src/mcp/approvals/webhook/webhook-links.service.js';
import { McpBodyReader } from '../../src/mcp/core/http/body-reader.service.js';
import { ADAPTERS, type AdapterName } from '../support/http-app.js';
import { promptClose } from '../support/idle-sockets.js';
import { stalledUpload, within, type StalledUpload } from '../support/stalled-upload.js';
import { until } from '../support/until.js';

/*
 * Issue 24, finding 2: the console's and the webhook links' POST routes went
 * through the app's body parsers, which read a body with no deadline, so a
 * client without credentials sending 99 kB of a 100 kB body held its socket
 * for Node's 300 s. They now read their own bodies as the MCP endpoint does:
 * after their cheap checks (the console's Origin and session cookie, the
 * link's signature), bounded, under `limits.bodyTimeoutMs`. A request those
 * checks refuse is answered without its body, and its connection closes.
 */

const ORIGIN = 'https://console.example.com';
/** The body deadline of these apps: short, so a stalled upload is cut within a test. */
const BODY_MS = 400;
/** Upper bound on "at once": the answer and the close come on the next turns, far below this. */
const AT_ONCE_MS = 2_000;
/** Upper bound on "within the body deadline", with room for a loaded machine. */
const DEADLINE_MS = BODY_MS + 2_000;
const PART = 'x'.repeat(1024);
const TOTAL = 100 * 1024;

async function boot(adapter: AdapterName) {
  const moduleRef = await Test.createTestingModule({
    imports: [
      McpModule.forRoot({
        name: 'stalled-uploads',
        version: '1.0.0',
        transport: 'http',
        authorizer: Authorizers.allowAll(),
        authorizerSource: 'configured',
        readAuthorizer: Authorizers.allowAll(),
        requireAuthorization: false,
        limits: { bodyTimeoutMs: BODY_MS },
        http: {
          // No request here reaches the issuer: the console only needs one to exist.
          auth: {
            issuer: 'https://issuer.example.com',
            audience: 'https://api.example.com/mcp',
            jwksUri: 'https://issuer.example.com/jwks',
          },
        },
        approvals: {
          console: { oidc: { clientId: 'warden-console', publicUrl: ORIGIN } },
          // Notices would go here; no call asks, so none is sent.
          webhook: { url: 'http://127.0.0.1:9/hook', secret: 'stalled uploads secret, long' },
        },
      }),
    ],
  }).compile();
  const app: INestApplication =
    adapter === 'fastify'
      ? moduleRef.createNestApplication(new FastifyAdapter(), { logger: false })
      : moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  const server = app.getHttpServer() as Server;
  const { port } = server.address() as AddressInfo;
  const links = app.get(McpWebhookLinks);
  return {
    app,
    port,
    server,
    reader: app.get(McpBodyReader),
    /** A link the app signed, for an ask that does not exist. */
    validLink: () =>
      `${links.routePath()}/${links.codec!.encode({
        askId: 'no-such-ask',
        decision: 'deny',
        exp: Date.now() + 60_000,
        jti: 'jti-1',
      })}`,
    close: promptClose(app),
  };
}

const json = { 'Content-Type': 'application/json' };
const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
const DECISION = '/approvals/asks/some-ask/decision';
const LINK = '/approvals/link/not-a-valid-token';

/** How many connections the server holds now. */
function connections(server: Server): Promise<number> {
  return new Promise((resolve, reject) =>
    server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}

describe.each(ADAPTERS)('stalled uploads on the console and link routes (%s)', (adapter) => {
  let t: Awaited<ReturnType<typeof boot>>;
  const uploads: StalledUpload[] = [];
  const upload = (...args: Parameters<typeof stalledUpload>) => {
    const started = stalledUpload(...args);
    uploads.push(started);
    return started;
  };

  beforeAll(async () => {
    t = await boot(adapter);
  });
  afterEach(() => {
    for (const { socket } of uploads.splice(0)) socket.destroy();
  });
  afterAll(() => t?.close());

  it('a decision without credentials is answered 401 at once and its connection closes, unread', async () => {
    const stalled = upload(t.port, DECISION, { ...json, Origin: ORIGIN }, PART, TOTAL);
    expect(await within(stalled.status, AT_ONCE_MS, 'the 401')).toBe(401);
    await within(stalled.closed, AT_ONCE_MS, 'the close');
    expect(t.reader.bufferedBytes).toBe(0);
  });

  it('a decision with a session cookie from the console origin is read under the body deadline: 408, then closed', async () => {
    const headers = { ...json, Origin: ORIGIN, Cookie: '__Host-warden-console=forged' };
    const stalled = upload(t.port, DECISION, headers, '{"approve":', 4000);
    expect(await within(stalled.status, DEADLINE_MS, 'the 408')).toBe(408);
    await within(stalled.closed, AT_ONCE_MS, 'the close');
    expect(t.reader.bufferedBytes).toBe(0);
  });

  it('a decision body past its bound is 413 before it is read', async () => {
    const headers = { ...json, Origin: ORIGIN, Cookie: '__Host-warden-console=forged' };
    const stalled = upload(t.port, DECISION, headers, PART, TOTAL);
    expect(await within(stalled.status, AT_ONCE_MS, 'the 413')).toBe(413);
    await within(stalled.closed, AT_ONCE_MS, 'the close');
  });

  it('a sign-out without credentials is answered at once and its connection closes', async () => {
    const stalled = upload(t.port, '/approvals/logout', form, PART, TOTAL);
    expect(await within(stalled.status, AT_ONCE_MS, 'the answer')).toBe(200);
    await within(stalled.closed, AT_ONCE_MS, 'the close');
  });

  it('a link whose token is not valid is answered 400 at once and its connection closes, unread', async () => {
    const stalled = upload(t.port, LINK, form, PART, TOTAL);
    expect(await within(stalled.status, AT_ONCE_MS, 'the 400')).toBe(400);
    await within(stalled.closed, AT_ONCE_MS, 'the close');
    expect(t.reader.bufferedBytes).toBe(0);
  });

  it('a valid link whose form stalls is cut at the body deadline: 408, then closed', async () => {
    const stalled = upload(t.port, t.validLink(), form, 'reason=too', 4000);
    expect(await within(stalled.status, DEADLINE_MS, 'the 408')).toBe(408);
    await within(stalled.closed, AT_ONCE_MS, 'the close');
    expect(t.reader.bufferedBytes).toBe(0);
  });

  it('sockets held per unauthenticated client: none once the body deadline passed', async () => {
    // One client (one address) opens many stalled uploads to both routes, with no credentials.
    const address = '127.0.0.7';
    const stalled = Array.from({ length: 20 }, (_, i) => [
      upload(t.port, DECISION, { ...json, Origin: ORIGIN }, PART, TOTAL, address),
      upload(t.port, `${LINK}-${i}`, form, PART, TOTAL, address),
    ]).flat();
    await within(
      Promise.all(stalled.map((s) => s.closed)),
      DEADLINE_MS,
      `all ${stalled.length} uploads closed`,
    );
    await until(() => t.reader.bufferedBytes === 0, 'nothing buffered');
    expect(await connections(t.server)).toBe(0);
  });
});
