import {
  ACCEPT_BOTH,
  initializeParams,
  type HttpTestApp,
  HTTP_VARIANTS,
} from '../support/http-app.js';
import { wireApp, expectRefusal, expectRawRefusal } from './wire-app.js';

describe.each(HTTP_VARIANTS)('Origin and Host validation on %s', (adapter) => {
  let t: HttpTestApp;
  const init = () =>
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams() });
  const rawInit = (headers: Record<string, string>) =>
    t.raw(
      'POST',
      '/mcp',
      { accept: ACCEPT_BOTH, 'content-type': 'application/json', ...headers },
      init(),
    );

  afterEach(() => t.close());

  describe('with the default (loopback) lists', () => {
    beforeEach(async () => {
      t = await wireApp(adapter);
    });

    it('a foreign Origin is 403 with a JSON-RPC error body, on /mcp and on /sse', async () => {
      await expectRefusal(await t.post(init(), { origin: 'http://evil.example.com' }), 403);
      await expectRefusal(
        await t.fetch('/sse', {
          headers: { accept: 'text/event-stream', origin: 'http://evil.example.com' },
        }),
        403,
      );
    });

    it('an Origin of "null" is 403', async () => {
      await expectRefusal(await t.post(init(), { origin: 'null' }), 403);
    });

    it('a foreign Host is 403 with a JSON-RPC error body', async () => {
      expectRawRefusal(await rawInit({ host: 'evil.example.com' }), 403);
      expectRawRefusal(await rawInit({ host: `evil.example.com:${t.port}` }), 403);
    });

    it('a loopback Origin on any port, and no Origin at all, are allowed', async () => {
      for (const origin of [
        'http://localhost:1234',
        `http://127.0.0.1:${t.port}`,
        'http://[::1]:8080',
      ]) {
        const response = await t.post(init(), { origin });
        expect(response.status).toBe(200);
        await response.json();
      }
      const none = await rawInit({});
      expect(none.status).toBe(200);
    });

    it('loopback Host variants are allowed: LOCALHOST:port, [::1]:port, 127.0.0.1', async () => {
      for (const host of [`LOCALHOST:${t.port}`, `[::1]:${t.port}`, '127.0.0.1', 'localhost']) {
        const response = await rawInit({ host });
        expect({ host, status: response.status }).toEqual({ host, status: 200 });
      }
    });
  });

  describe('with allowedOrigins and allowedHosts', () => {
    beforeEach(async () => {
      t = await wireApp(adapter, {
        http: { allowedOrigins: ['https://app.example.com'], allowedHosts: ['mcp.example.com'] },
      });
    });

    it('allowedOrigins extends the Origin list; other foreign origins stay refused', async () => {
      const allowed = await t.post(init(), { origin: 'https://app.example.com' });
      expect(allowed.status).toBe(200);
      await allowed.json();
      const local = await t.post(init(), { origin: 'http://localhost:3000' });
      expect(local.status).toBe(200);
      await local.json();
      await expectRefusal(await t.post(init(), { origin: 'https://evil.example.com' }), 403);
    });

    it('allowedHosts extends the Host list (any port); other foreign hosts stay refused', async () => {
      expect((await rawInit({ host: 'mcp.example.com' })).status).toBe(200);
      expect((await rawInit({ host: `mcp.example.com:${t.port}` })).status).toBe(200);
      expect((await rawInit({ host: `localhost:${t.port}` })).status).toBe(200);
      expectRawRefusal(await rawInit({ host: 'other.example.com' }), 403);
    });
  });
});
