import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { deleteKeys, uniquePrefix } from '../cluster/cluster-support.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import { describeWithService, findService, TEST_REDIS_URL } from '../support/services.js';
import { bootOperatorApp, operator, runs, type OperatorApp } from './operator-app.js';

/*
 * The "approval pending" answer in cluster mode (docs/operator-approvals.md), with the default
 * SDK v1 client: the ask made on one instance is found by the same call on another, and an
 * approval runs one call across instances, however many retry it at once.
 */

describeWithService(
  await findService(TEST_REDIS_URL),
  'approval pending in cluster mode, default SDK client',
  (redisUrl) => {
    let issuer: TestIssuer;
    let a: OperatorApp;
    let b: OperatorApp;
    let prefix: string;
    let clients: Client[];
    let calls = 0;
    let args: Record<string, unknown>;

    async function caller(app: OperatorApp, sub: string): Promise<Client> {
      const client = new Client({ name: 'caller', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(app.url), {
          requestInit: { headers: { authorization: `Bearer ${await app.token(sub)}` } },
        }),
      );
      clients.push(client);
      return client;
    }
    const purge = (client: Client): Promise<any> =>
      client.callTool({ name: 'purge_notes', arguments: args });

    beforeAll(async () => {
      issuer = await startTestIssuer();
      prefix = uniquePrefix();
      const options = {
        cluster: { redisUrl, keyPrefix: prefix },
        elicitationTimeoutMs: 120_000,
        approvals: { answerWithinMs: 300 },
      };
      a = await bootOperatorApp(issuer, options);
      b = await bootOperatorApp(issuer, options);
    });
    afterAll(async () => {
      await Promise.all([a.close(), b.close()]);
      await deleteKeys(redisUrl, prefix);
      await issuer.close();
    });
    beforeEach(() => {
      runs.purge = 0;
      clients = [];
      args = { scope: 'all', call: ++calls };
    });
    afterEach(() => Promise.all(clients.map((client) => client.close())));

    it('pending on A, approved on B, retried on B: runs once; retried on A: does not run again', async () => {
      const onA = await caller(a, 'alice');
      const onB = await caller(b, 'alice');
      const pending = await purge(onA);
      expect(pending.structuredContent.detail).toBe('approval pending');
      const id: string = pending.structuredContent.approval.id;
      // Without a console origin the result names no page; the marker still names the ask.
      expect(pending.structuredContent.approval.url).toBeUndefined();
      // The same call on B finds A's ask: no second one.
      expect((await purge(onB)).structuredContent.approval.id).toBe(id);
      expect((await b.desk.pending()).total).toBe(1);
      await b.desk.decide(id, operator(issuer, 'bob'), { approve: true, via: 'console' });
      expect((await purge(onB)).content).toEqual([{ type: 'text', text: 'purged all' }]);
      expect(runs.purge).toBe(1);
      const again = await purge(onA);
      expect(again.structuredContent.detail).toBe('approval pending');
      expect(again.structuredContent.approval.id).not.toBe(id);
      expect(runs.purge).toBe(1);
    });

    it('retried on both instances at once, an approval runs exactly one of them', async () => {
      const onA = await caller(a, 'alice');
      const onB = await caller(b, 'alice');
      const pending = await purge(onA);
      const id: string = pending.structuredContent.approval.id;
      await a.desk.decide(id, operator(issuer, 'bob'), { approve: true, via: 'api' });
      const results = await Promise.all([purge(onA), purge(onB), purge(onA), purge(onB)]);
      const ran = results.filter((result) => !result.isError);
      expect(ran).toHaveLength(1);
      expect(ran[0].content).toEqual([{ type: 'text', text: 'purged all' }]);
      expect(runs.purge).toBe(1);
      // The others were told no: the approval was used, or they made a new ask.
      for (const result of results.filter((r) => r.isError)) {
        expect(['approval already used', 'approval pending']).toContain(
          result.structuredContent.detail,
        );
      }
    });
  },
);
