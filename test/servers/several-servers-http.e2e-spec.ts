import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableV2,
} from '@modelcontextprotocol/client';
import { filter, firstValueFrom } from 'rxjs';
import {
  getMcpWardenToken,
  MCP_OPERATOR_DESK,
  McpModule,
  type McpAuditEvent,
  type McpOperatorDesk,
  type McpWarden,
} from '../../src/index.js';
import { serverTokenOf } from '../../src/mcp/core/servers/server-tokens.js';
import { ADAPTERS, type HttpTestApp } from '../support/http-app.js';
import {
  approvalQuestion,
  denial,
  MODERN,
  modernMessage,
  postModern,
  readJson,
  SERVER_INFO_KEY,
} from '../modern/modern-app.js';
import {
  bootTwoServers,
  PARTNER_CALLS_PER_SECOND,
  partnerOptions,
  PURGE_PROMPT,
  REFUND_PROMPT,
  resetRuns,
  runs,
  WIPE_PROMPT,
  type TwoServers,
} from './two-servers-app.js';

/*
 * Two servers in one app (docs/several-servers.md), over HTTP with the official SDK clients:
 * nothing of one server is reachable through the other. Sessions and requestStates, tools,
 * approvals (the caller's and the operator's), policies and limits are each server's own.
 */

const ADMIN_TOOLS = ['status', 'wipe', 'purge', 'refund', 'reset_counters'];
const PARTNER_TOOLS = ['quote', 'status', 'wipe'];
const APPROVE = { action: 'accept', content: { approve: true } } as const;
const OPERATOR = { subject: 'ops', scopes: ['mcp:approve'] };

const desk = (t: TwoServers, name: string) =>
  t.app.get<McpOperatorDesk>(serverTokenOf(MCP_OPERATOR_DESK, name));
const warden = (t: TwoServers, name: string) => t.app.get<McpWarden>(getMcpWardenToken(name));
const text = (result: unknown) =>
  (result as { content: { text: string }[] }).content.map((part) => part.text).join('');

describe.each(ADAPTERS)('several servers over HTTP (%s)', (adapter) => {
  let t: TwoServers;
  const clients: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    t = await bootTwoServers(adapter);
  });
  afterAll(() => t.close());
  beforeEach(resetRuns);
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
  });

  /* An SDK v1 client of one server that approves whatever it is asked. */
  async function legacyClient(server: HttpTestApp, sse = false): Promise<Client> {
    const client = new Client(
      { name: 'jest-v1', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, () => APPROVE);
    const base = new URL(server.url);
    await client.connect(
      sse
        ? new SSEClientTransport(new URL(base.pathname.replace(/\/mcp$/, '/sse'), base))
        : new StreamableHTTPClientTransport(base),
    );
    clients.push(client);
    return client;
  }

  async function modernClient(server: HttpTestApp): Promise<ClientV2> {
    const client = new ClientV2(
      { name: 'jest-v2', version: '2.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: MODERN } } },
    );
    client.setRequestHandler('elicitation/create', async () => APPROVE);
    await client.connect(new StreamableV2(new URL(server.url)));
    clients.push(client);
    return client;
  }

  describe('the 2025-11-25 era (SDK v1, Streamable HTTP)', () => {
    it('each server lists its own tools and announces its own serverInfo', async () => {
      const admin = await legacyClient(t.admin);
      const partner = await legacyClient(t.partner);
      expect(admin.getServerVersion()).toEqual({ name: 'admin', version: '1.0.0' });
      expect(partner.getServerVersion()).toEqual({ name: 'partner', version: '2.0.0' });
      expect((await admin.listTools()).tools.map((tool) => tool.name).sort()).toEqual(
        [...ADMIN_TOOLS].sort(),
      );
      // partner's policy forbids its `purge` outright, so the read seam hides it as well.
      expect((await partner.listTools()).tools.map((tool) => tool.name).sort()).toEqual(
        [...PARTNER_TOOLS].sort(),
      );
    });

    it("one server's tool cannot be called through the other", async () => {
      // partner's policy knows only partner's tools: another's name is denied at the seam.
      const partner = await legacyClient(t.partner);
      for (const name of ['refund', 'reset_counters']) {
        expect(await partner.callTool({ name, arguments: {} })).toMatchObject({
          isError: true,
          structuredContent: { tool: name, decision: 'deny', detail: 'not_permitted' },
        });
      }
      // admin's closure allows any name: the server then finds no such tool.
      const admin = await legacyClient(t.admin);
      await expect(admin.callTool({ name: 'quote', arguments: {} })).rejects.toThrow(
        /Unknown tool: quote/,
      );
      expect(runs).toMatchObject({ refund: 0, quote: 0 });
    });

    it('a session of one server is unknown to the other', async () => {
      const admin = await t.admin.initialize();
      const partner = await t.partner.initialize();
      for (const [server, session] of [
        [t.partner, admin.sessionId],
        [t.admin, partner.sessionId],
      ] as const) {
        const response = await server.post(server.message('tools/list', {}), {
          'mcp-session-id': session,
        });
        expect(response.status).toBe(404);
        expect(((await response.json()) as any).error.message).toBe('Session not found');
      }
    });

    it("one server's policy never decides the other's calls", async () => {
      const decisions = (name: string) => {
        const seen: McpAuditEvent[] = [];
        const sub = warden(t, name).audit$.subscribe((event) => {
          if (event.kind === 'decision' && event.seam === 'tool') seen.push(event);
        });
        return { seen, stop: () => sub.unsubscribe() };
      };
      const onAdmin = decisions('admin');
      const onPartner = decisions('partner');
      const admin = await legacyClient(t.admin);
      const partner = await legacyClient(t.partner);
      // admin's closure asks the caller, who approves; partner's Cedar policy forbids its own.
      expect(text(await admin.callTool({ name: 'purge', arguments: {} }))).toBe('admin purged');
      const refused = await partner.callTool({ name: 'purge', arguments: {} });
      expect(refused).toMatchObject({ isError: true, structuredContent: { decision: 'deny' } });
      expect(runs).toMatchObject({ adminPurge: 1, partnerPurge: 0 });
      onAdmin.stop();
      onPartner.stop();
      expect(onAdmin.seen.map((e) => [e.name, e.decision, e.detail])).toEqual([
        ['purge', 'ask', PURGE_PROMPT],
      ]);
      expect(onPartner.seen.map((e) => [e.name, e.decision])).toEqual([['purge', 'deny']]);
      expect(onPartner.seen[0]!.policies).toEqual(['partner-no-purge']);
    });

    it("an operator ask on one server never reaches the other's desk, and only its own decides it", async () => {
      const admin = await legacyClient(t.admin);
      const pending = firstValueFrom(
        desk(t, 'admin').events$.pipe(filter((event) => event.type === 'pending')),
      );
      const call = admin.callTool({ name: 'refund', arguments: {} });
      const { ask } = (await pending) as { ask: { id: string; prompt: string } };
      expect(ask.prompt).toBe(REFUND_PROMPT);
      expect((await desk(t, 'partner').pending()).asks).toEqual([]);
      expect(await desk(t, 'partner').get(ask.id)).toBeUndefined();
      expect(
        await desk(t, 'partner').decide(ask.id, OPERATOR, { approve: true, via: 'api' }),
      ).toEqual({ ok: false, problem: 'not found' });
      expect(runs.refund).toBe(0);
      expect((await desk(t, 'admin').pending()).asks.map((a) => a.id)).toEqual([ask.id]);
      const decided = await desk(t, 'admin').decide(ask.id, OPERATOR, {
        approve: true,
        via: 'api',
      });
      expect(decided.ok).toBe(true);
      expect(text(await call)).toBe('refunded');
      expect(runs.refund).toBe(1);
    });
  });

  describe('the 2024-11-05 SSE pair (SDK v1)', () => {
    it('each server has its own pair, under its ssePairPath', async () => {
      const admin = await legacyClient(t.admin, true);
      const partner = await legacyClient(t.partner, true);
      expect(admin.getServerVersion()?.name).toBe('admin');
      expect(partner.getServerVersion()?.name).toBe('partner');
      expect((await partner.listTools()).tools.map((tool) => tool.name).sort()).toEqual(
        [...PARTNER_TOOLS].sort(),
      );
      expect(text(await admin.callTool({ name: 'reset_counters', arguments: {} }))).toBe('reset');
    });

    it("a pair session of one server is unknown to the other's messages endpoint", async () => {
      const abort = new AbortController();
      const stream = await t.admin.fetch(
        '/admin/sse',
        { headers: { accept: 'text/event-stream' } },
        abort,
      );
      expect(stream.status).toBe(200);
      const reader = stream.body!.getReader();
      let seen = '';
      while (!/sessionId=([\w-]+)/.test(seen)) {
        const { value, done } = await reader.read();
        if (done) throw new Error('the SSE stream ended before its endpoint event');
        seen += new TextDecoder().decode(value);
      }
      const session = /sessionId=([\w-]+)/.exec(seen)![1];
      const foreign = await t.partner.fetch(`/partner/messages?sessionId=${session}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(t.partner.message('tools/list', {})),
      });
      expect(foreign.status).toBe(404);
      abort.abort();
    });
  });

  describe('the 2026-07-28 era (SDK v2, pinned)', () => {
    it('each server discovers, lists and calls its own tools only', async () => {
      const admin = await modernClient(t.admin);
      const partner = await modernClient(t.partner);
      expect(admin.getServerVersion()).toEqual({ name: 'admin', version: '1.0.0' });
      expect(partner.getServerVersion()).toEqual({ name: 'partner', version: '2.0.0' });
      expect((await partner.listTools()).tools.map((tool) => tool.name).sort()).toEqual(
        [...PARTNER_TOOLS].sort(),
      );
      expect(text(await partner.callTool({ name: 'quote', arguments: {} }))).toBe('quoted 42');
      expect(await partner.callTool({ name: 'reset_counters', arguments: {} })).toMatchObject({
        isError: true,
        structuredContent: { tool: 'reset_counters', decision: 'deny' },
      });
      // The caller approves admin's ask through the SDK's input-required round.
      expect(text(await admin.callTool({ name: 'wipe', arguments: {} }))).toBe('wiped');
      expect(runs).toMatchObject({ quote: 1, wipe: 1 });
    });

    it("one server's policy never decides the other's calls", async () => {
      const call = async (server: HttpTestApp) =>
        (
          await readJson(
            await postModern(
              server,
              modernMessage(1, 'tools/call', { name: 'purge' }, { elicitation: {} }),
            ),
          )
        ).result;
      // admin's closure asks the caller; partner's Cedar policy forbids its own `purge`.
      expect(await call(t.admin)).toMatchObject({
        resultType: 'input_required',
        inputRequests: { approval: approvalQuestion('purge', PURGE_PROMPT) },
      });
      expect(await call(t.partner)).toMatchObject({
        resultType: 'complete',
        isError: true,
        structuredContent: { tool: 'purge', decision: 'deny', detail: 'partners_cannot_purge' },
      });
      expect(runs).toMatchObject({ adminPurge: 0, partnerPurge: 0 });
    });

    it('a requestState of one server is refused by the other, for the same tool and caller', async () => {
      const first = await postModern(
        t.admin,
        modernMessage(1, 'tools/call', { name: 'wipe' }, { elicitation: {} }),
      );
      const asked = (await readJson(first)).result;
      expect(asked).toMatchObject({
        resultType: 'input_required',
        inputRequests: { approval: approvalQuestion('wipe', WIPE_PROMPT) },
      });
      const retry = {
        name: 'wipe',
        inputResponses: { approval: APPROVE },
        requestState: asked.requestState,
      };
      const onPartner = await postModern(
        t.partner,
        modernMessage(2, 'tools/call', retry, { elicitation: {} }),
      );
      expect((await readJson(onPartner)).result).toEqual({
        ...denial('wipe', 'ask', 'approval state invalid'),
        resultType: 'complete',
        _meta: { [SERVER_INFO_KEY]: { name: 'partner', version: '2.0.0' } },
      });
      expect(runs.wipe).toBe(0);
      // The same retry on its own server runs the tool.
      const onAdmin = await postModern(
        t.admin,
        modernMessage(3, 'tools/call', retry, { elicitation: {} }),
      );
      expect(text((await readJson(onAdmin)).result)).toBe('wiped');
      expect(runs.wipe).toBe(1);
    });
  });
});

/* One request of an era: a tools/call in a session (2025-11-25), or a stateless one (2026-07-28). */
type Era = 'legacy' | 'modern';
async function caller(server: HttpTestApp, era: Era): Promise<() => Promise<number>> {
  let id = 0;
  if (era === 'modern') {
    return async () =>
      (await postModern(server, modernMessage(++id, 'tools/call', { name: 'status' }))).status;
  }
  const { sessionId } = await server.initialize();
  return async () =>
    (
      await server.post(server.message('tools/call', { name: 'status' }), {
        'mcp-session-id': sessionId,
      })
    ).status;
}

describe.each(['legacy', 'modern'] as const)(
  "one server's limits never count the other's calls (%s era)",
  (era) => {
    let t: TwoServers;
    beforeAll(async () => {
      const limits = { callsPerSecondPerPrincipal: PARTNER_CALLS_PER_SECOND };
      t = await bootTwoServers('express', {
        partner: McpModule.forRoot(partnerOptions({ limits })),
      });
    });
    afterAll(() => t.close());

    it("partner's call rate (2/s, a bucket of 4) neither counts admin's calls nor limits them", async () => {
      // Twenty admin requests first: had they counted, partner's bucket would be empty.
      const admin = await caller(t.admin, era);
      for (let i = 0; i < 20; i++) expect(await admin()).toBe(200);
      // partner's first requests (a legacy session's two among them) fit its bucket of four.
      const partner = await caller(t.partner, era);
      expect([await partner(), await partner()]).toEqual([200, 200]);
      // partner runs dry within a few more requests (refill is 2/s)…
      let refused = false;
      for (let i = 0; i < 20 && !refused; i++) refused = (await partner()) === 429;
      expect(refused).toBe(true);
      // …while admin, from the same caller, is served as before.
      for (let i = 0; i < 10; i++) expect(await admin()).toBe(200);
    });
  },
);
