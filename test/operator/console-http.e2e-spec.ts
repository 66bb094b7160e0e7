import { aborted } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ADAPTERS } from '../support/http-app.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import {
  bootConsoleApp,
  consoleClient,
  consolePorts,
  csrfOf,
  ISSUER_SCOPES,
  SESSION_COOKIE,
  signInThroughConsole,
  type ConsoleApp,
} from './console-app.js';
import { runs } from './operator-app.js';
import { McpRegistry } from '../../src/index.js';

/*
 * The operator console over HTTP (docs/operator-approvals.md), on Express and Fastify, with
 * a real oidc-provider: sign-in, its cookie, the security headers, CSRF on
 * decisions, the four-eyes rule, escaping and the history.
 */

let issuer: TestIssuer;
let ports: number[];

beforeAll(async () => {
  ports = await consolePorts(ADAPTERS.length + 1);
  issuer = await startTestIssuer({
    scopes: ISSUER_SCOPES,
    clients: [consoleClient(ports)],
    // mallory may sign in, but is never granted the approver scope.
    grantableScopes: (account) => (account === 'mallory' ? [] : undefined),
  });
});
afterAll(() => issuer.close());

describe.each(ADAPTERS.map((adapter, i) => [adapter, i] as const))(
  'console on %s',
  (adapter, i) => {
    let t: ConsoleApp;
    let olivia: { cookie: string; csrf: string };

    beforeAll(async () => {
      t = await bootConsoleApp(issuer, ports[i], adapter);
      const signedIn = await signInThroughConsole(t.console, 'olivia');
      const page = await fetch(t.console, { headers: { cookie: signedIn.cookie! } });
      olivia = { cookie: signedIn.cookie!, csrf: csrfOf(await page.text()) };
    });
    afterAll(() => t.close());
    beforeEach(() => {
      runs.purge = 0;
    });

    /** Calls purge_notes as `caller`; resolves once its ask is pending. */
    async function pendingCall(caller: Client, args: Record<string, unknown> = { scope: 'all' }) {
      const asked = t.nextAsk();
      const result = caller.callTool({ name: 'purge_notes', arguments: args });
      return { ask: await asked, result };
    }

    function decide(id: string, body: object, headers: Record<string, string>) {
      return fetch(`${t.console}/asks/${encodeURIComponent(id)}/decision`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    }

    it('cookie flags: the session cookie is __Host-, Secure, HttpOnly, SameSite=Lax, Path=/', async () => {
      const signedIn = await signInThroughConsole(t.console, 'olivia');
      expect(signedIn.status).toBe(303);
      const line = signedIn.setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
      const attributes = line.split(';').map((a) => a.trim().toLowerCase());
      expect(attributes).toEqual(
        expect.arrayContaining(['secure', 'httponly', 'samesite=lax', 'path=/', 'max-age=28800']),
      );
      expect(attributes.some((a) => a.startsWith('domain'))).toBe(false);
      // The sign-in's own cookie is cleared once used.
      expect(
        signedIn.setCookies.some((c) => /^__Host-warden-console-login=;.*Max-Age=0/.test(c)),
      ).toBe(true);
    });

    it('CSP frame-ancestors and the other security headers are on every console response', async () => {
      const responses = await Promise.all([
        fetch(t.console, { headers: { cookie: olivia.cookie } }),
        fetch(t.console, { redirect: 'manual' }),
        fetch(`${t.console}/console.js`),
        fetch(`${t.console}/history`, { headers: { cookie: olivia.cookie } }),
        fetch(`${t.console}/asks`),
      ]);
      expect(responses.map((r) => r.status)).toEqual([200, 303, 200, 200, 401]);
      for (const response of responses) {
        const csp = response.headers.get('content-security-policy') ?? '';
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).toContain("script-src 'self'");
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        expect(response.headers.get('referrer-policy')).toBe('no-referrer');
        expect(response.headers.get('cache-control')).toBe('no-store');
        await response.body?.cancel();
      }
    });

    it('the pending page shows the running tasks beside the waiting asks, ids cut short', async () => {
      t.app.get(McpRegistry).registerTool({
        name: `long_export_${adapter}`,
        description: 'Runs until cancelled',
        inputSchema: { type: 'object' },
        task: 'optional',
        handler: async (_args, ctx) => {
          await Promise.resolve();
          ctx.progress(1, 2, 'half exported');
          await aborted(ctx.signal, ctx.signal);
          throw ctx.signal.reason;
        },
      });
      const token = await issuer.mintToken({ aud: t.url, sub: 'carl', scope: 'notes:read' });
      const modern = (method: string, params: Record<string, unknown>) =>
        fetch(t.url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': method,
            'mcp-name': String(params.name ?? params.taskId),
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method,
            params: {
              ...params,
              _meta: {
                'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                'io.modelcontextprotocol/clientCapabilities': {
                  extensions: { 'io.modelcontextprotocol/tasks': {} },
                },
              },
            },
          }),
        }).then((response) => response.json() as Promise<any>);
      const created = await modern('tools/call', { name: `long_export_${adapter}`, arguments: {} });
      const taskId: string = created.result.taskId;
      let task: any;
      do task = (await modern('tasks/get', { taskId })).result;
      while (task.statusMessage === undefined);
      // Its own arguments: a deny stands for its binding, which no other test's call shares.
      const { ask, result } = await pendingCall(await t.caller('alice'), { scope: 'beside-tasks' });
      const page = await (await fetch(t.console, { headers: { cookie: olivia.cookie } })).text();
      // The ask's card and the task's row on one page.
      expect(page).toContain(`data-id="${ask.id}"`);
      const panel = page.slice(page.indexOf('<section id="tasks"'));
      expect(panel).toContain(`long_export_${adapter}`);
      expect(panel).toContain(`<code>${taskId.slice(0, 8)}</code>`);
      expect(panel).toMatch(
        /<td>working<\/td>\s*<td>half exported \(1\/2\)<\/td>\s*<td>carl<\/td>/,
      );
      // A whole task id answers and cancels the task for its owner: no page carries one.
      expect(page).not.toContain(taskId);
      await modern('tasks/cancel', { taskId });
      await t.desk.decide(
        ask.id,
        { subject: 'olivia', scopes: ['mcp:approve'] },
        {
          approve: false,
          reason: 'not now',
          via: 'api',
        },
      );
      await result;
    });

    it('sign-in without the approver scope is refused with a 403 page and no session', async () => {
      const refused = await signInThroughConsole(t.console, 'mallory');
      expect(refused.status).toBe(403);
      expect(refused.body).toContain('Not an approver');
      expect(refused.body).toContain('mallory');
      expect(refused.cookie).toBeUndefined();
      // And with no session, the console sends the browser to sign in.
      const page = await fetch(t.console, { redirect: 'manual' });
      expect(page.status).toBe(303);
      expect(page.headers.get('location')).toMatch(/\/approvals\/login\?return=/);
    });

    it('CSRF: a decision without the token, with a wrong one, or from a foreign Origin is refused 403 and nothing is decided', async () => {
      const caller = await t.caller('alice');
      const { ask, result } = await pendingCall(caller);
      const refusals = await Promise.all([
        decide(ask.id, { approve: true }, { cookie: olivia.cookie, origin: t.origin }),
        decide(
          ask.id,
          { approve: true },
          {
            cookie: olivia.cookie,
            origin: t.origin,
            'x-csrf-token': 'x'.repeat(olivia.csrf.length),
          },
        ),
        decide(
          ask.id,
          { approve: true },
          { cookie: olivia.cookie, origin: 'https://evil.example', 'x-csrf-token': olivia.csrf },
        ),
        decide(ask.id, { approve: true }, { cookie: olivia.cookie, 'x-csrf-token': olivia.csrf }),
      ]);
      expect(refusals.map((r) => r.status)).toEqual([403, 403, 403, 403]);
      expect(await t.desk.get(ask.id)).toMatchObject({ id: ask.id });
      expect((await t.desk.get(ask.id))?.decision).toBeUndefined();
      expect(runs.purge).toBe(0);
      // The same decision with the token and the console's Origin is taken.
      const taken = await decide(
        ask.id,
        { approve: true },
        { cookie: olivia.cookie, origin: t.origin, 'x-csrf-token': olivia.csrf },
      );
      expect(taken.status).toBe(200);
      expect(await taken.json()).toMatchObject({
        ok: true,
        decision: { operator: 'olivia', approved: true },
      });
      expect((await result).content).toEqual([{ type: 'text', text: 'purged all' }]);
    });

    it("the caller's own console session cannot approve its call: the desk's 'own call'", async () => {
      const alice = await signInThroughConsole(t.console, 'alice');
      const page = await fetch(t.console, { headers: { cookie: alice.cookie! } });
      const csrf = csrfOf(await page.text());
      const caller = await t.caller('alice');
      const { ask, result } = await pendingCall(caller);
      const own = await decide(
        ask.id,
        { approve: true },
        { cookie: alice.cookie!, origin: t.origin, 'x-csrf-token': csrf },
      );
      expect(own.status).toBe(403);
      expect(await own.json()).toEqual({ ok: false, problem: 'own call' });
      expect((await t.desk.get(ask.id))?.decision).toBeUndefined();
      await decide(
        ask.id,
        { approve: false, reason: 'cleanup' },
        { cookie: olivia.cookie, origin: t.origin, 'x-csrf-token': olivia.csrf },
      );
      expect(JSON.stringify((await result).structuredContent)).toContain(
        'operator denied: cleanup',
      );
    });

    it('everything an ask shows is HTML-escaped', async () => {
      const caller = await t.caller('alice');
      const { ask, result } = await pendingCall(caller, { scope: '<img src=x onerror=alert(1)>' });
      const page = await (await fetch(t.console, { headers: { cookie: olivia.cookie } })).text();
      expect(page).toContain(`data-id="${ask.id}"`);
      expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(page).not.toContain('<img src=x');
      await decide(
        ask.id,
        { approve: false, reason: '<b>no</b>' },
        { cookie: olivia.cookie, origin: t.origin, 'x-csrf-token': olivia.csrf },
      );
      await result;
      const history = await (
        await fetch(`${t.console}/history`, { headers: { cookie: olivia.cookie } })
      ).text();
      expect(history).toContain('&lt;b&gt;no&lt;/b&gt;');
      expect(history).not.toContain('<b>no</b>');
    });

    it('history shows a decision: outcome, tool, caller, operator and reason', async () => {
      const caller = await t.caller('carol');
      const { ask, result } = await pendingCall(caller);
      const denied = await decide(
        ask.id,
        { approve: false, reason: 'not on a Friday' },
        { cookie: olivia.cookie, origin: t.origin, 'x-csrf-token': olivia.csrf },
      );
      expect(denied.status).toBe(200);
      await result;
      const history = await (
        await fetch(`${t.console}/history`, { headers: { cookie: olivia.cookie } })
      ).text();
      const row = history
        .split('<tr>')
        .find((r) => r.includes('not on a Friday') && r.includes('<td>denied</td>'));
      expect(row).toBeDefined();
      expect(row).toContain('<td>purge_notes</td>');
      expect(row).toContain('<td>carol</td>');
      expect(row).toContain('<td>olivia</td>');
    });

    it('a forged session cookie is no session', async () => {
      const forged = `${SESSION_COOKIE}=${olivia.cookie.split('=')[1].slice(0, -4)}AAAA`;
      expect((await fetch(`${t.console}/asks`, { headers: { cookie: forged } })).status).toBe(401);
      expect(
        (await fetch(`${t.console}/asks`, { headers: { cookie: olivia.cookie } })).status,
      ).toBe(200);
    });
  },
);

describe('console off', () => {
  it('is not served without approvals.console.oidc', async () => {
    const t = await bootConsoleApp(issuer, ports[ADAPTERS.length], 'express', { approvals: {} });
    try {
      expect((await fetch(t.console)).status).toBe(404);
      expect((await fetch(`${t.console}/login`)).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
