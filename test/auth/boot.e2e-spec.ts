import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import { compileAuthApp, freePort, RecordingLogger, rpc, initializeParams } from './auth-app.js';

/*
 * The network boot check: an HTTP transport on a non-loopback address with no
 * authentication refuses to boot when the guard is armed, listens when
 * authentication is configured, and listens with a warning when disarmed.
 */

let issuer: TestIssuer;

beforeAll(async () => {
  issuer = await startTestIssuer();
});
afterAll(() => issuer.close());

/** Initializes over loopback against an app bound to every address: the HTTP status. */
async function initializeStatus(port: number, token?: string): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(rpc(0, 'initialize', initializeParams())),
  });
  await response.arrayBuffer();
  return response.status;
}

describe('boot on a non-loopback address', () => {
  it('without authentication and with requireAuthorization: true, app.listen rejects (refuses to boot)', async () => {
    const app = await compileAuthApp({ requireAuthorization: true });
    try {
      await expect(app.listen(0, '0.0.0.0')).rejects.toThrow(/refuses to boot/);
      expect((app.getHttpServer() as Server).listening).toBe(false);
    } finally {
      await app.close();
    }
  });

  it('with bearer auth configured (and the guard armed) it listens, and authenticates', async () => {
    const port = await freePort();
    const audience = `http://127.0.0.1:${port}/mcp`;
    const app = await compileAuthApp({
      requireAuthorization: true,
      http: { auth: { issuer: issuer.issuer, audience, jwksUri: issuer.jwksUri } },
    });
    try {
      await app.listen(port, '0.0.0.0');
      const address = (app.getHttpServer() as Server).address() as AddressInfo;
      expect(address.address).toBe('0.0.0.0');
      expect(await initializeStatus(port)).toBe(401);
      const token = await issuer.mintToken({ aud: audience, sub: 'alice' });
      expect(await initializeStatus(port, token)).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('with an authenticate hook configured it listens', async () => {
    const app = await compileAuthApp({
      requireAuthorization: true,
      http: { authenticate: () => ({ subject: 'gateway-user', scopes: [] }) },
    });
    try {
      await app.listen(0, '0.0.0.0');
      const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
      expect(await initializeStatus(port)).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('with requireAuthorization: false it listens, and logs a warning naming the missing authentication', async () => {
    const logger = new RecordingLogger();
    const app = await compileAuthApp({ requireAuthorization: false }, logger);
    try {
      await app.listen(0, '0.0.0.0');
      const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
      expect(await initializeStatus(port)).toBe(200);
      expect(logger.warnings).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/0\.0\.0\.0 \(not loopback\) has no authentication/),
        ]),
      );
    } finally {
      await app.close();
    }
  });

  it('on loopback without authentication and with the guard armed it listens (the control)', async () => {
    const logger = new RecordingLogger();
    const app = await compileAuthApp({ requireAuthorization: true }, logger);
    try {
      await app.listen(0, '127.0.0.1');
      const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
      expect(await initializeStatus(port)).toBe(200);
      expect(logger.warnings.filter((w) => w.includes('not loopback'))).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
