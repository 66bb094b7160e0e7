import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Injectable } from '@nestjs/common';
import { filter, firstValueFrom } from 'rxjs';
import {
  MCP_OPERATOR_DESK,
  McpAuditSinks,
  McpTool,
  McpWarden,
  type Authorizer,
  type McpAuditEvent,
  type McpOperatorDesk,
} from '../../src/index.js';
import type { CuttableProxy } from '../support/cuttable-proxy.js';
import { cuttableDatabase, type CuttableDatabase } from '../support/cuttable-database.js';
import { createHttpApp, type HttpTestApp } from '../support/http-app.js';
import type { TestSchema } from '../support/postgres-schema.js';
import { describeWithService, findService, TEST_DATABASE_URL } from '../support/services.js';
import { argumentsDigest } from '../../src/mcp/authorization/audit/arguments-digest.js';
import { recordsOf, verifySource } from './audit-app.js';
import { ObservedSink } from './observed-sink.js';

/*
 * `audit.failClosed` and the approver's answer: an approval is what lets an asked-about tool
 * run, so it stands only once its record is kept, as the seam's own decision does. PostgreSQL
 * is cut (a TCP proxy in front of the real server) right after the call's ask is kept, so the
 * approval is the first record that cannot be: the call is denied (`audit_unavailable`), the
 * tool does not run, and once the database is back the chain tells the whole story. By the
 * caller (elicitation) and by an operator, over HTTP with the SDK v2 client, in both eras.
 */

const MODERN = '2026-07-28';
const INPUT = { type: 'object', properties: { text: { type: 'string' } } };

@Injectable()
class ApprovedTools {
  readonly ran: string[] = [];

  @McpTool({ description: 'Runs once its caller approves', input: INPUT })
  caller_approves({ text }: { text?: string }) {
    this.ran.push(`caller_approves ${text}`);
    return `ran ${text}`;
  }

  @McpTool({ description: 'Runs once an operator approves', input: INPUT })
  operator_approves({ text }: { text?: string }) {
    this.ran.push(`operator_approves ${text}`);
    return `ran ${text}`;
  }
}

const authorizer: Authorizer = (name) =>
  name === 'caller_approves'
    ? { kind: 'ask', prompt: 'Run it?' }
    : name === 'operator_approves'
      ? { kind: 'ask', prompt: 'Release it?', approver: 'operator' }
      : { kind: 'allow' };

const OPERATOR = { subject: 'operator-1', issuer: 'https://idp.test', scopes: ['mcp:approve'] };

const postgres = await findService(TEST_DATABASE_URL);

describeWithService(postgres, 'audit.failClosed: an approval whose record is lost', (url) => {
  let database: CuttableDatabase;
  let schema: TestSchema;
  let proxy: CuttableProxy;
  let sink: ObservedSink;
  let t: HttpTestApp;
  let tools: ApprovedTools;
  let desk: McpOperatorDesk;

  beforeAll(async () => {
    database = await cuttableDatabase(url);
    ({ schema, proxy } = database);
    const db = database.kysely();
    sink = new ObservedSink(McpAuditSinks.sql({ db }));
    t = await createHttpApp(
      {
        authorizer,
        authorizerSource: 'configured',
        elicitationTimeoutMs: 5_000,
        audit: { sinks: [sink], failClosed: true, failClosedTimeoutMs: 1_000 },
      },
      [ApprovedTools],
    );
    tools = t.app.get(ApprovedTools);
    desk = t.app.get<McpOperatorDesk>(MCP_OPERATOR_DESK);
  });
  afterAll(async () => {
    await t?.close();
    await database?.close();
  });

  /* Whether a test left the database cut: the next one starts with it back. */
  let cut = false;
  afterEach(async () => {
    sink.afterKept = sink.beforeWrite = undefined;
    if (cut) await proxy.restore();
    cut = false;
  });

  /* Cuts the database once the `nth` ask of `tool` on the tool seam is kept. */
  function cutAfterAsk(tool: string, nth: number): void {
    let seen = 0;
    sink.afterKept = async (entries) => {
      for (const { record } of entries) {
        if (record.kind !== 'decision' || record.seam !== 'tool' || record.name !== tool) continue;
        if (record.decision === 'ask') seen += 1;
      }
      if (seen < nth) return;
      sink.afterKept = undefined;
      await proxy.cut();
      cut = true;
    };
  }

  /* Brings the database back, and waits until the queued records are written. */
  async function restore(): Promise<void> {
    const recovered = sink.nextWrite();
    await proxy.restore();
    cut = false;
    await recovered;
  }

  /* The kept records of calls with these arguments, as [seam, decision or outcome, detail]. */
  async function story(text: string): Promise<string[][]> {
    const records = await recordsOf(schema.url);
    const calls = new Set(
      records
        .filter((r) => r.seam === 'tool' && r.argumentsDigest === argumentsDigest({ text }))
        .map((r) => r.id),
    );
    return records
      .filter((r) => calls.has(r.id) || calls.has(r.of))
      .map((r) => [r.kind, r.seam, r.outcome ?? r.decision, r.detail ?? '']);
  }

  const lost = { decision: 'deny', detail: 'audit_unavailable' };

  describe.each(['legacy', 'modern'] as const)('%s era', (era) => {
    let client: Client;
    let transport: StreamableHTTPClientTransport;
    // The modern era asks in a result and the client calls again: that call is decided anew.
    const nth = era === 'modern' ? 2 : 1;

    beforeAll(async () => {
      client = new Client(
        { name: 'fail-closed-approvals', version: '1.0.0' },
        {
          capabilities: { elicitation: {} },
          ...(era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN } } } : {}),
        },
      );
      client.setRequestHandler('elicitation/create', async () => ({
        action: 'accept',
        content: { approve: true },
      }));
      transport = new StreamableHTTPClientTransport(new URL(t.url));
      await client.connect(transport);
    });
    afterAll(() => client.close());

    const call = (name: string, text: string) =>
      client.callTool({ name, arguments: { text } }) as Promise<any>;

    it('the caller approves, the record is lost: denied, the tool did not run', async () => {
      const text = `${era}-caller-lost`;
      cutAfterAsk('caller_approves', nth);
      const result = await call('caller_approves', text);
      expect(result).toMatchObject({ isError: true, structuredContent: lost });
      expect(tools.ran).not.toContain(`caller_approves ${text}`);

      await restore();
      const asked = ['decision', 'tool', 'ask', 'Run it?'];
      expect(await story(text)).toEqual([
        asked,
        ...(era === 'modern' ? [asked] : []),
        ['decision', 'elicitation', 'allow', 'user approved'],
        ['decision', 'elicitation', 'deny', 'audit_unavailable'],
      ]);
      expect(await verifySource(schema.url)).toEqual([expect.objectContaining({ breaks: [] })]);
    });

    it('the database back, the caller approves: the tool runs', async () => {
      const text = `${era}-caller-kept`;
      expect(await call('caller_approves', text)).toMatchObject({
        content: [{ text: `ran ${text}` }],
      });
      expect(tools.ran).toContain(`caller_approves ${text}`);
    });

    if (era === 'legacy') {
      it('cancelled while its approval is being recorded: the tool never starts', async () => {
        const text = `${era}-cancelled`;
        // The approval's write is held until the server has the call's cancellation.
        let holding!: () => void;
        const held = new Promise<void>((resolve) => (holding = resolve));
        let release!: () => void;
        sink.beforeWrite = async (entries) => {
          const approval = entries.some(
            ({ record }) => record.kind === 'decision' && record.seam === 'elicitation',
          );
          if (!approval) return;
          sink.beforeWrite = undefined;
          holding();
          await new Promise<void>((resolve) => (release = resolve));
        };
        // Every event of the call, and when its refusal comes.
        const events: McpAuditEvent[] = [];
        let refusedNow!: () => void;
        const refused = new Promise<void>((resolve) => (refusedNow = resolve));
        const seen = t.app.get(McpWarden).audit$.subscribe((event) => {
          if (event.name !== 'caller_approves') return;
          events.push(event);
          if (event.detail === 'cancelled') refusedNow();
        });
        const cancel = new AbortController();
        const call = client.callTool(
          { name: 'caller_approves', arguments: { text } },
          { signal: cancel.signal },
        );
        await held;
        // The call's id, from its decision; the cancellation is sent and answered (202) before
        // the approval's write goes on.
        const asked = events.find((e) => e.seam === 'tool');
        cancel.abort();
        await call.catch(() => undefined);
        const notified = await fetch(t.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-session-id': transport.sessionId!,
            'mcp-protocol-version': '2025-11-25',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: asked!.requestId, reason: 'the test cancels it' },
          }),
        });
        expect(notified.status).toBe(202);
        release();
        await refused;
        seen.unsubscribe();
        expect(tools.ran).not.toContain(`caller_approves ${text}`);
        const story = events.map((e) => [e.kind, e.seam, e.decision, e.detail ?? '']);
        expect(story).toEqual([
          ['decision', 'tool', 'ask', 'Run it?'],
          ['decision', 'elicitation', 'allow', 'user approved'],
          ['decision', 'tool', 'deny', 'cancelled'],
        ]);
      });
    }

    it('an operator approves, the record is lost: denied, the tool did not run', async () => {
      const text = `${era}-operator-lost`;
      cutAfterAsk('operator_approves', nth);
      const pending = firstValueFrom(desk.events$.pipe(filter((e) => e.type === 'pending')));
      const first = call('operator_approves', text);
      const { ask } = (await pending) as { ask: { id: string } };
      const decided = await desk.decide(ask.id, OPERATOR, { approve: true, via: 'api' });
      expect(decided.ok).toBe(true);
      // The handshake era waits for the operator; the modern era answers that the approval is
      // pending, and the same call made again uses it.
      const result =
        era === 'modern' ? (await first, await call('operator_approves', text)) : await first;
      expect(result).toMatchObject({ isError: true, structuredContent: lost });
      expect(tools.ran).not.toContain(`operator_approves ${text}`);

      await restore();
      const asked = ['decision', 'tool', 'ask', 'Release it?'];
      const opened = ['decision', 'operator', 'ask', 'Release it?'];
      const steps = await story(text);
      expect(steps[0]).toEqual(asked);
      expect(steps).toContainEqual(opened);
      expect(steps.slice(-2)).toEqual([
        ['decision', 'operator', 'allow', 'operator approved'],
        ['decision', 'operator', 'deny', 'audit_unavailable'],
      ]);
      expect(steps.map(([kind]) => kind)).not.toContain('outcome');
      expect(await verifySource(schema.url)).toEqual([expect.objectContaining({ breaks: [] })]);
    });
  });
});
