import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import {
  APPROVER_SCOPE,
  bootConsoleApp,
  consoleClient,
  consolePorts,
  csrfOf,
  ISSUER_SCOPES,
  signInThroughConsole,
  type ConsoleApp,
} from './console-app.js';

/*
 * Console sessions end when they should (docs/operator-console.md, "Sessions"): a sign-out
 * ends the session on the server, so a copy of its cookie is no session; the issuer is asked
 * again, so an operator who loses the approver scope there loses every console session; a
 * cookie opens only at the console and issuer it was issued for; the sealing secret is long.
 */

/** Seconds the short-lived issuer's tokens last: each session is re-checked this often. */
const SHORT_TOKEN_SECONDS = 2;
const SECRET = 'a console sealing secret shared by two deployments';

let issuer: TestIssuer;
let shortIssuer: TestIssuer;
let ports: number[];
/** The grants the short-lived issuer saved, newest last, by account. */
const grants = new Map<string, string[]>();

beforeAll(async () => {
  ports = await consolePorts(4);
  const client = consoleClient(ports);
  issuer = await startTestIssuer({ scopes: ISSUER_SCOPES, clients: [client] });
  shortIssuer = await startTestIssuer({
    scopes: ISSUER_SCOPES,
    accessTokenTtl: SHORT_TOKEN_SECONDS,
    clients: [{ ...client, scope: `${client.scope} offline_access` }],
  });
  shortIssuer.provider.on('grant.saved', (grant: { accountId: string; jti: string }) => {
    const list = grants.get(grant.accountId) ?? [];
    if (!list.includes(grant.jti)) list.push(grant.jti);
    grants.set(grant.accountId, list);
  });
});
afterAll(async () => {
  await issuer.close();
  await shortIssuer.close();
});

/** An operator signed in: the cookie, and the CSRF token of its pages. */
async function signIn(t: ConsoleApp, subject: string) {
  const signedIn = await signInThroughConsole(t.console, subject);
  expect(signedIn.status).toBe(303);
  const page = await fetch(t.console, { headers: { cookie: signedIn.cookie! } });
  return { cookie: signedIn.cookie!, csrf: csrfOf(await page.text()) };
}

function asks(t: ConsoleApp, cookie: string) {
  return fetch(`${t.console}/asks`, { headers: { cookie } }).then((r) => r.status);
}

function logout(t: ConsoleApp, headers: Record<string, string>, body = '') {
  return fetch(`${t.console}/logout`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', ...headers },
    body,
  });
}

/** Resolves once `check()` holds, polling every 100 ms; rejects after `ms`. */
async function eventually(check: () => Promise<boolean>, what: string, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never happened: ${what}`);
}

describe('console sessions', () => {
  let t: ConsoleApp;

  beforeAll(async () => {
    t = await bootConsoleApp(issuer, ports[0], 'express', { stateSecret: SECRET });
  });
  afterAll(() => t.close());

  it('sign-out ends the session: a copy of its cookie replayed afterwards lists and decides nothing', async () => {
    const olivia = await signIn(t, 'olivia');
    const copy = olivia.cookie;
    const out = await logout(t, { cookie: olivia.cookie, origin: t.origin }, `csrf=${olivia.csrf}`);
    expect(out.status).toBe(200);
    expect(await asks(t, copy)).toBe(401);
    const decision = await fetch(`${t.console}/asks/any/decision`, {
      method: 'POST',
      headers: {
        cookie: copy,
        origin: t.origin,
        'x-csrf-token': olivia.csrf,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ approve: true }),
    });
    expect(decision.status).toBe(401);
    const page = await fetch(t.console, { headers: { cookie: copy }, redirect: 'manual' });
    expect(page.status).toBe(303);
  });

  it('sign-out ends only its own session: another sign-in of the same operator goes on', async () => {
    const [first, second] = [await signIn(t, 'oscar'), await signIn(t, 'oscar')];
    await logout(t, { cookie: first.cookie, origin: t.origin }, `csrf=${first.csrf}`);
    expect(await asks(t, first.cookie)).toBe(401);
    expect(await asks(t, second.cookie)).toBe(200);
  });

  it('logout takes the CSRF token from the X-CSRF-Token header, as a decision does', async () => {
    const olivia = await signIn(t, 'olivia');
    const out = await logout(t, {
      cookie: olivia.cookie,
      origin: t.origin,
      'x-csrf-token': olivia.csrf,
    });
    expect(out.status).toBe(200);
    expect(await asks(t, olivia.cookie)).toBe(401);
  });

  it('logout with a wrong token in the header is refused and the session goes on', async () => {
    const olivia = await signIn(t, 'olivia');
    const out = await logout(t, {
      cookie: olivia.cookie,
      origin: t.origin,
      'x-csrf-token': 'x'.repeat(olivia.csrf.length),
    });
    expect(out.status).toBe(403);
    expect(await asks(t, olivia.cookie)).toBe(200);
  });

  it('a cookie from a deployment sharing the stateSecret but signing in at another issuer is no session', async () => {
    // Staging: its own issuer, the same secret, the same console path.
    const staging = await bootConsoleApp(shortIssuer, ports[1], 'express', {
      stateSecret: SECRET,
    });
    try {
      const stagingCookie = (await signIn(staging, 'olivia')).cookie;
      expect(await asks(staging, stagingCookie)).toBe(200);
      expect(await asks(t, stagingCookie)).toBe(401);
    } finally {
      await staging.close();
    }
  });
});

describe('console sessions re-checked with the issuer', () => {
  let t: ConsoleApp;

  afterEach(() => t?.close());

  it('losing the approver scope at the issuer ends every console session of that operator', async () => {
    t = await bootConsoleApp(shortIssuer, ports[2], 'express', {
      stateSecret: SECRET,
      approvals: {
        console: {
          oidc: {
            clientId: 'warden-console',
            publicUrl: `http://127.0.0.1:${ports[2]}`,
            scopes: [APPROVER_SCOPE, 'offline_access'],
          },
        },
      },
    });
    const first = await signIn(t, 'olga');
    const second = await signIn(t, 'olga');
    const other = await signIn(t, 'otto');
    // Past the first token's lifetime the console asks the issuer again, and the scope holds.
    await new Promise((resolve) => setTimeout(resolve, SHORT_TOKEN_SECONDS * 1000 + 200));
    expect(await asks(t, first.cookie)).toBe(200);
    // An administrator takes the approver scope from olga's first sign-in at the issuer.
    const grant = await shortIssuer.provider.Grant.find(grants.get('olga')![0]);
    grant!.rejectOIDCScope(APPROVER_SCOPE);
    await grant!.save();
    await eventually(async () => (await asks(t, first.cookie)) === 401, 'the first session ends');
    // Her other sign-in (another grant, still holding the scope) ends with it; otto's does not.
    expect(await asks(t, second.cookie)).toBe(401);
    expect(await asks(t, other.cookie)).toBe(200);
  });

  it('without a refresh token a session ends with the access token it was signed in with', async () => {
    t = await bootConsoleApp(shortIssuer, ports[3], 'express', { stateSecret: SECRET });
    const olivia = await signIn(t, 'olivia');
    expect(await asks(t, olivia.cookie)).toBe(200);
    await eventually(async () => (await asks(t, olivia.cookie)) === 401, 'the session ends');
  });
});

describe('the console sealing secret', () => {
  it('a stateSecret under 16 characters fails the boot of an app with a console', async () => {
    const booted = bootConsoleApp(issuer, ports[0], 'express', { stateSecret: 'too short' });
    // Closed at once should it boot, so the failure is the assertion's, not a port left open.
    await expect(booted.then((app) => app.close())).rejects.toThrow(
      'stateSecret must be at least 16 characters',
    );
  });
});
