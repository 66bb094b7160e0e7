import type { Server } from 'node:http';
import { ADAPTERS, createHttpApp, type HttpTestApp } from '../support/http-app.js';

/*
 * Issue 24, finding 2: the server's own request timeout bounds what a slow
 * uploader holds on any route, the app's included. Node's default is 5 min
 * and Fastify sets none; it is lowered to `limits.requestTimeoutMs` (60 s),
 * never below a head's and an MCP body's deadlines together.
 */
describe.each(ADAPTERS)('server timeouts (%s)', (adapter) => {
  let t: HttpTestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  const server = () => t!.app.getHttpServer() as Server;

  it('lowers requestTimeout to limits.requestTimeoutMs (default 60 s) and headersTimeout to 10 s', async () => {
    t = await createHttpApp({}, [], adapter);
    expect(server().requestTimeout).toBe(60_000);
    expect(server().headersTimeout).toBe(10_000);
  });

  it('takes a configured requestTimeoutMs', async () => {
    t = await createHttpApp({ limits: { requestTimeoutMs: 45_000 } }, [], adapter);
    expect(server().requestTimeout).toBe(45_000);
  });

  it('never lowers it below headersTimeoutMs plus bodyTimeoutMs, so an MCP body gets its own 408 first', async () => {
    t = await createHttpApp(
      { limits: { requestTimeoutMs: 1_000, headersTimeoutMs: 5_000, bodyTimeoutMs: 20_000 } },
      [],
      adapter,
    );
    expect(server().requestTimeout).toBe(25_000);
  });
});
