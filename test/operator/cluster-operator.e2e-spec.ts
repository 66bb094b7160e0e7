import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { deleteKeys, uniquePrefix } from '../cluster/cluster-support.js';
import { deferred } from '../support/deferred.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import { describeWithService, findService, TEST_REDIS_URL } from '../support/services.js';
import { bootOperatorApp, operator, runs, type OperatorApp } from './operator-app.js';

/*
 * Cluster mode (docs/deployment.md, docs/operator-approvals.md): two instances share one Redis; an
 * operator's decision taken through instance B's desk releases the call
 * parked on instance A, and the first decision wins across instances.
 */

describeWithService(
  await findService(TEST_REDIS_URL),
  'operator approvals in cluster mode',
  (redisUrl) => {
    let issuer: TestIssuer;
    let a: OperatorApp;
    let b: OperatorApp;
    let prefix: string;
    let client: Client;

    beforeAll(async () => {
      issuer = await startTestIssuer();
      prefix = uniquePrefix();
      const cluster = { redisUrl, keyPrefix: prefix };
      a = await bootOperatorApp(issuer, { cluster });
      b = await bootOperatorApp(issuer, { cluster });
    });
    afterAll(async () => {
      await Promise.all([a.close(), b.close()]);
      await deleteKeys(redisUrl, prefix);
      await issuer.close();
    });
    beforeEach(async () => {
      runs.purge = 0;
      client = new Client({ name: 'caller', version: '1.0.0' }, { capabilities: {} });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(a.url), {
          requestInit: { headers: { authorization: `Bearer ${await a.token('alice')}` } },
        }),
      );
    });
    afterEach(() => client.close());

    function purgeOnA() {
      const waiting = deferred();
      const result = client.callTool({ name: 'purge_notes', arguments: {} }, undefined, {
        onprogress: () => waiting.resolve(),
      });
      return { result, waiting: waiting.promise };
    }

    it('an approval on another instance releases the call', async () => {
      const seenOnB = b.nextAsk();
      const call = purgeOnA();
      const ask = await seenOnB;
      await call.waiting;
      expect((await b.desk.pending()).asks.map((x) => x.id)).toEqual([ask.id]);
      const decided = await b.desk.decide(ask.id, operator(issuer, 'bob'), {
        approve: true,
        via: 'console',
      });
      expect(decided).toMatchObject({ ok: true });
      expect((await call.result).content).toEqual([{ type: 'text', text: 'purged all' }]);
      expect(runs.purge).toBe(1);
      // The call's record of the approval is on A, where the call waited; the desk's is on B,
      // where the operator decided, linked to the call's decision on A. Both name the operator.
      const asked = a.audit.find((e) => e.seam === 'tool' && e.kind === 'decision')!;
      expect(a.audit.at(-1)).toMatchObject({
        seam: 'operator',
        decision: 'allow',
        detail: 'operator approved',
        operator: 'bob',
        principal: 'alice',
      });
      expect(b.audit.filter((e) => e.seam === 'operator')).toMatchObject([
        {
          seam: 'operator',
          decision: 'allow',
          detail: 'operator approved via console',
          operator: 'bob',
          principal: 'alice',
          of: asked.id,
          connId: asked.connId,
        },
      ]);
      expect(await b.desk.get(ask.id)).toBeUndefined();
    });

    it('the first decision wins across instances, and the own-call rule holds on each', async () => {
      const seenOnB = b.nextAsk();
      const call = purgeOnA();
      const ask = await seenOnB;
      expect(
        await b.desk.decide(ask.id, operator(issuer, 'alice'), { approve: true, via: 'api' }),
      ).toEqual({ ok: false, problem: 'own call' });
      const [onA, onB] = await Promise.all([
        a.desk.decide(ask.id, operator(issuer, 'carol'), {
          approve: false,
          reason: 'carol says no',
          via: 'api',
        }),
        b.desk.decide(ask.id, operator(issuer, 'bob'), {
          approve: false,
          reason: 'bob says no',
          via: 'api',
        }),
      ]);
      const wins = [onA, onB].filter((answer) => answer.ok);
      expect(wins).toHaveLength(1);
      expect([onA, onB].filter((answer) => !answer.ok)).toEqual([
        { ok: false, problem: 'already decided' },
      ]);
      const winner = (wins[0] as { record: { decision: { reason: string } } }).record.decision;
      const result: any = await call.result;
      expect(result.structuredContent.detail).toBe(`operator denied: ${winner.reason}`);
      expect(runs.purge).toBe(0);
    });
  },
);
