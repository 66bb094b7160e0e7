import { McpClusterBus } from '../../src/mcp/cluster/cluster-bus.js';
import { RedisConsoleSessionStore } from '../../src/mcp/cluster/redis-console-session.store.js';
import type { ConsoleSessionRecord } from '../../src/mcp/approvals/console/console-session-store.interface.js';
import { deleteKeys, uniquePrefix } from '../cluster/cluster-support.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import { describeWithService, findService, TEST_REDIS_URL } from '../support/services.js';
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
 * Console sessions in cluster mode (docs/operator-console.md, "Sessions"): two instances share
 * one Redis and one public URL; a session signed in on one is served by the other, and ended
 * on one, by a sign-out or a lost approver scope, it is ended on both. The store's bounds hold
 * across instances.
 */

const SECRET = 'the cluster shares this console sealing secret';
const SHORT_TOKEN_SECONDS = 2;

describeWithService(
  await findService(TEST_REDIS_URL),
  'console sessions in cluster mode',
  (redisUrl) => {
    let issuer: TestIssuer;
    let a: ConsoleApp;
    let b: ConsoleApp;
    let prefix: string;
    const grants = new Map<string, string[]>();

    beforeAll(async () => {
      const ports = await consolePorts(2);
      const client = consoleClient(ports);
      issuer = await startTestIssuer({
        scopes: ISSUER_SCOPES,
        accessTokenTtl: SHORT_TOKEN_SECONDS,
        clients: [{ ...client, scope: `${client.scope} offline_access` }],
      });
      issuer.provider.on('grant.saved', (grant: { accountId: string; jti: string }) => {
        const list = grants.get(grant.accountId) ?? [];
        if (!list.includes(grant.jti)) list.push(grant.jti);
        grants.set(grant.accountId, list);
      });
      prefix = uniquePrefix();
      // Both instances behind one public URL (A's), as behind a load balancer.
      const options = {
        stateSecret: SECRET,
        cluster: { redisUrl, keyPrefix: prefix },
        approvals: {
          console: {
            oidc: {
              clientId: 'warden-console',
              publicUrl: `http://127.0.0.1:${ports[0]}`,
              scopes: [APPROVER_SCOPE, 'offline_access'],
            },
          },
        },
      };
      a = await bootConsoleApp(issuer, ports[0], 'express', options);
      b = await bootConsoleApp(issuer, ports[1], 'express', options);
    });
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
      await deleteKeys(redisUrl, prefix);
      await issuer.close();
    });

    async function signIn(subject: string) {
      const signedIn = await signInThroughConsole(a.console, subject);
      expect(signedIn.status).toBe(303);
      const page = await fetch(a.console, { headers: { cookie: signedIn.cookie! } });
      return { cookie: signedIn.cookie!, csrf: csrfOf(await page.text()) };
    }

    const asks = (t: ConsoleApp, cookie: string) =>
      fetch(`${t.console}/asks`, { headers: { cookie } }).then((r) => r.status);

    it('a session signed in on A is served on B, and signing out on B ends it on A', async () => {
      const olivia = await signIn('olivia');
      expect(await asks(b, olivia.cookie)).toBe(200);
      const out = await fetch(`${b.console}/logout`, {
        method: 'POST',
        headers: { cookie: olivia.cookie, origin: a.origin, 'x-csrf-token': olivia.csrf },
      });
      expect(out.status).toBe(200);
      expect(await asks(a, olivia.cookie)).toBe(401);
      expect(await asks(b, olivia.cookie)).toBe(401);
    });

    it('the approver scope lost at the issuer, found out on B, ends the sessions on A too', async () => {
      const first = await signIn('olga');
      const second = await signIn('olga');
      const grant = await issuer.provider.Grant.find(grants.get('olga')![0]);
      grant!.rejectOIDCScope(APPROVER_SCOPE);
      await grant!.save();
      // B asks the issuer once the first session's token has lived its life.
      const deadline = Date.now() + 15_000;
      while ((await asks(b, first.cookie)) !== 401) {
        if (Date.now() > deadline) throw new Error('the first session never ended');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await asks(a, first.cookie)).toBe(401);
      expect(await asks(a, second.cookie)).toBe(401);
    });
  },
);

describeWithService(await findService(TEST_REDIS_URL), 'RedisConsoleSessionStore', (redisUrl) => {
  let prefix: string;
  let buses: McpClusterBus[];
  let next = 0;

  async function open(maxSessions = 10, maxPerOperator = 10) {
    const bus = await McpClusterBus.connect({
      redisUrl,
      keyPrefix: prefix,
      maxMessageBytes: 1024 * 1024,
    });
    buses.push(bus);
    return new RedisConsoleSessionStore(bus.command, prefix, { maxSessions, maxPerOperator });
  }

  function session(subject = 'olivia', ttlMs = 60_000): ConsoleSessionRecord {
    const now = Date.now() + next; // distinct expiries keep the sign-in order in the indexes
    return {
      id: `s${++next}`,
      operator: { subject, issuer: 'https://idp', scopes: [APPROVER_SCOPE] },
      csrf: 'c',
      audience: 'https://w/approvals',
      createdAt: now,
      expiresAt: now + ttlMs,
      checkAt: now + ttlMs,
    };
  }

  beforeEach(() => {
    prefix = uniquePrefix();
    buses = [];
  });
  afterEach(async () => {
    await Promise.all(buses.map((bus) => bus.close()));
    await deleteKeys(redisUrl, prefix);
  });

  it('an operator past their bound loses their oldest session, whichever instance signed them in', async () => {
    const [one, two] = [await open(10, 2), await open(10, 2)];
    const [s1, s2, s3] = [session(), session(), session()];
    expect(await one.create(s1)).toBe(true);
    expect(await two.create(s2)).toBe(true);
    expect(await one.create(s3)).toBe(true);
    expect(await two.get(s1.id)).toBeUndefined();
    expect(await two.get(s2.id)).toEqual(s2);
    expect(await two.get(s3.id)).toEqual(s3);
  });

  it('a full store refuses a new session on every instance until one ends', async () => {
    const [one, two] = [await open(2, 2), await open(2, 2)];
    const olivia = session('olivia');
    await one.create(olivia);
    await two.create(session('oscar'));
    expect(await two.create(session('otto'))).toBe(false);
    await two.remove(olivia.id);
    expect(await one.get(olivia.id)).toBeUndefined();
    expect(await one.create(session('otto'))).toBe(true);
  });

  it('removeOperator ends every session of the operator; update only touches a live one', async () => {
    const [one, two] = [await open(), await open()];
    const mine = [session('olivia'), session('olivia')];
    const other = session('oscar');
    for (const s of [...mine, other]) await one.create(s);
    expect(await two.update({ ...mine[0], checkAt: 1 })).toBe(true);
    expect((await one.get(mine[0].id))?.checkAt).toBe(1);
    await two.removeOperator(mine[0].operator);
    for (const s of mine) expect(await one.get(s.id)).toBeUndefined();
    expect(await one.get(other.id)).toEqual(other);
    expect(await one.update(mine[1])).toBe(false);
    // The bound counts what is left: olivia may hold her sessions again.
    expect(await one.create(session('olivia'))).toBe(true);
  });

  it('a re-check round is claimed by one instance only', async () => {
    const [one, two] = [await open(), await open()];
    const s = session();
    await one.create(s);
    const claims = await Promise.all([one.claim(s.id, 1, 5_000), two.claim(s.id, 1, 5_000)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await two.claim(s.id, 2, 5_000)).toBe(true);
  });
});
