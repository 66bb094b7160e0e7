import { McpAuditSinks } from '../../src/index.js';
import { MCP_AUDIT_VIEW, type McpAuditView } from '../../src/mcp/audit/audit-view.interface.js';
import { nextTurn } from '../../src/mcp/core/common/next-turn.js';
import type { CuttableProxy } from '../support/cuttable-proxy.js';
import { until } from '../support/until.js';
import { cuttableDatabase, type CuttableDatabase } from '../support/cuttable-database.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import type { TestSchema } from '../support/postgres-schema.js';
import { describeWithService, findService, TEST_DATABASE_URL } from '../support/services.js';
import { argumentsDigest } from '../../src/mcp/authorization/audit/arguments-digest.js';
import { AuditedTools, auditAuthorizer, recordsOf, verifySource } from './audit-app.js';
import { ObservedSink } from './observed-sink.js';

/*
 * `audit.failClosed` on a PostgreSQL table, with the database cut mid-traffic by a TCP proxy in
 * front of the real server: calls deny (`audit_unavailable`) while it is down, serve again once
 * it is back, and no tool runs without its decision record kept.
 */

const postgres = await findService(TEST_DATABASE_URL);

describeWithService(postgres, 'audit.failClosed on PostgreSQL', (databaseUrl) => {
  let database: CuttableDatabase;
  let schema: TestSchema;
  let proxy: CuttableProxy;
  let sink: ObservedSink;
  let t: McpTestApp;
  let tools: AuditedTools;

  beforeAll(async () => {
    database = await cuttableDatabase(databaseUrl);
    ({ schema, proxy } = database);
    const db = database.kysely();
    sink = new ObservedSink(McpAuditSinks.sql({ db }));
    t = await createMcpApp(
      {
        authorizer: auditAuthorizer,
        transport: 'stdio',
        audit: { sinks: [sink], failClosed: true, failClosedTimeoutMs: 1_000 },
      },
      [AuditedTools],
    );
    tools = t.app.get(AuditedTools);
    await t.initialize('c1');
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
  });

  const call = (text: string) => t.callTool('fine', { text }, 'c1');
  const denied = {
    isError: true,
    structuredContent: expect.objectContaining({ detail: 'audit_unavailable' }),
  };

  it('serves, denies while the database is cut, serves again once it is back', async () => {
    for (const text of ['1', '2', '3']) {
      expect(await call(text)).toMatchObject({ content: [{ text: `fine ${text}` }] });
    }
    expect(tools.ran).toHaveLength(3);

    await proxy.cut();
    expect(await call('down-1')).toMatchObject(denied);
    expect(await call('down-2')).toMatchObject(denied);
    expect(tools.ran).toHaveLength(3);

    const recovered = sink.nextWrite();
    await proxy.restore();
    // The journal retries the queued records in order; once a batch is kept, calls serve.
    await recovered;
    expect(await call('4')).toMatchObject({ content: [{ text: 'fine 4' }] });
    expect(tools.ran).toHaveLength(4);
  });

  /*
   * Every record appended so far is kept. A call answers once its decision record is kept; its
   * outcome record is queued before the answer and written after it.
   */
  async function allKept(): Promise<void> {
    const view = t.app.get<McpAuditView>(MCP_AUDIT_VIEW);
    for (;;) {
      // Asked for before the check: a write that ends between the two still wakes this loop.
      const written = sink.nextWrite();
      const state = view.chainState();
      if (state.sinks.every((kept) => kept.keptSeq >= state.seq)) return;
      await written;
    }
  }

  it('every call that ran has its decision record; the chain has no hole', async () => {
    await allKept();
    const records = await recordsOf(schema.url);
    const ran = records.filter((r) => r.kind === 'outcome');
    expect(ran).toHaveLength(tools.ran.length);
    for (const outcome of ran) {
      expect(records).toContainEqual(
        expect.objectContaining({
          id: outcome.of,
          kind: 'decision',
          decision: 'allow',
          name: 'fine',
        }),
      );
    }
    // The outage's decisions were kept late, each followed by the deny it turned into.
    expect(records.filter((r) => r.detail === 'audit_unavailable')).toHaveLength(2);
    expect(await verifySource(schema.url)).toEqual([expect.objectContaining({ breaks: [] })]);
  });

  it('cut and restored with calls in flight: every call that ran is recorded, the rest denied', async () => {
    const before = tools.ran.length;
    const served: string[] = [];
    let deniedCount = 0;
    let stop = false;
    // Waiters on the traffic: resolved by what the calls answer, never by a clock.
    const waiters: { done: () => boolean; resolve: () => void }[] = [];
    const check = () => {
      for (const waiter of waiters.splice(0)) {
        if (waiter.done()) waiter.resolve();
        else waiters.push(waiter);
      }
    };
    const until = (done: () => boolean) =>
      new Promise<void>((resolve) => {
        waiters.push({ done, resolve });
        check();
      });
    // Four callers, each one call after another, until told to stop. In process, a denied call
    // answers within the same turn: each caller lets the loop turn, as a client's I/O would.
    const callers = Array.from({ length: 4 }, async (_, caller) => {
      for (let n = 0; !stop; n += 1) {
        await nextTurn();
        const text = `w${caller}-${n}`;
        const answer = await call(text);
        if (answer.isError) {
          expect(answer).toMatchObject(denied);
          deniedCount += 1;
        } else {
          expect(answer).toMatchObject({ content: [{ text: `fine ${text}` }] });
          served.push(text);
        }
        check();
      }
    });
    await until(() => served.length >= 8);
    await proxy.cut();
    const deniedBefore = deniedCount;
    await until(() => deniedCount >= deniedBefore + 4);
    const recovered = sink.nextWrite();
    await proxy.restore();
    await recovered;
    const servedAfter = served.length;
    await until(() => served.length >= servedAfter + 8);
    stop = true;
    await Promise.all(callers);

    // Only the calls answered with their result ran, each once.
    expect(tools.ran.length - before).toBe(served.length);
    await allKept();
    const records = await recordsOf(schema.url);
    const allowed = new Set(
      records
        .filter((r) => r.kind === 'decision' && r.decision === 'allow' && r.name === 'fine')
        .map((r) => r.argumentsDigest),
    );
    for (const text of served) expect(allowed.has(argumentsDigest({ text }))).toBe(true);
    expect(await verifySource(schema.url)).toEqual([expect.objectContaining({ breaks: [] })]);
  });

  it('a connection gone silent: calls deny, at once after the first, until the link is reset', async () => {
    expect(await call('s-1')).toMatchObject({ content: [{ text: 'fine s-1' }] });
    const ran = tools.ran.length;
    const view = t.app.get<McpAuditView>(MCP_AUDIT_VIEW);
    proxy.silence();
    // Its write never ends: the call is refused at failClosedTimeoutMs, and the sink taken for
    // failing, so the next call is refused before it waits.
    expect(await call('s-2')).toMatchObject(denied);
    await until(() => !view.chainState().sinks[0]!.healthy, 'the silent sink taken for failing');
    expect(await call('s-3')).toMatchObject(denied);
    expect(tools.ran).toHaveLength(ran);
    // Reset, the hung write fails and is retried on a new connection: calls serve again.
    const recovered = sink.nextWrite();
    await proxy.cut();
    await proxy.restore();
    await recovered;
    expect(await call('s-4')).toMatchObject({ content: [{ text: 'fine s-4' }] });
    expect(tools.ran).toHaveLength(ran + 1);
    await allKept();
    expect(await verifySource(schema.url)).toEqual([expect.objectContaining({ breaks: [] })]);
  });
});
