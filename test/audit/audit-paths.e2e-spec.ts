import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Injectable } from '@nestjs/common';
import { McpAuditSinks, McpTool, McpWarden, type McpAuditEvent } from '../../src/index.js';
import { createHttpApp, type HttpTestApp } from '../support/http-app.js';
import {
  AuditedTools,
  approvalAt,
  auditAuthorizer,
  logDir,
  recordsOf,
  verifySource,
  modernRequest,
} from './audit-app.js';
import { deferred } from '../support/deferred.js';

/*
 * Every path a call can take leaves its records, over Streamable HTTP in both eras with the
 * official SDK v2 client (over real stdio: audit-stdio-paths): the
 * decision, the approval step linked to it, and, for a call that ran, its outcome.
 */

const MODERN = '2026-07-28';

describe.each(['legacy', 'modern'] as const)(
  'audit records of every path, %s era over HTTP',
  (era) => {
    let t: HttpTestApp;
    let dir: string;
    let client: Client;
    let events: McpAuditEvent[];
    let answer: () => Promise<{ action: 'accept' | 'decline'; content?: Record<string, boolean> }>;

    beforeAll(async () => {
      dir = logDir();
      t = await createHttpApp(
        {
          authorizer: auditAuthorizer,
          authorizerSource: 'configured',
          // Long enough for an answer on a loaded machine; a silent caller still ends in seconds.
          elicitationTimeoutMs: 3_000,
          limits: { toolTimeoutMs: 300 },
          audit: { sinks: [McpAuditSinks.jsonl({ dir })] },
        },
        [AuditedTools],
      );
      events = [];
      t.app.get(McpWarden).audit$.subscribe((event) => events.push(event));
      client = new Client(
        { name: 'audit-paths', version: '1.0.0' },
        {
          capabilities: { elicitation: {} },
          ...(era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN } } } : {}),
        },
      );
      client.setRequestHandler('elicitation/create', () => answer());
      await client.connect(new StreamableHTTPClientTransport(new URL(t.url)));
    });
    afterAll(async () => {
      await client.close();
      await t.close();
    });

    /** The events of the last call of `tool`, from its decision on. */
    async function story(tool: string, call: () => Promise<unknown>) {
      const from = events.length;
      await call();
      const mine = events
        .slice(from)
        .filter((event) => event.seam !== 'read' && event.name === tool);
      const decisions = new Set(
        mine.filter((e) => e.kind === 'decision' && e.seam === 'tool').map((e) => e.id),
      );
      // Every approval step and outcome names a decision of this call: none is left unlinked.
      for (const event of mine) {
        if (event.kind === 'decision' && event.seam === 'tool') continue;
        expect([event.kind, event.seam, event.of && decisions.has(event.of)]).toEqual([
          event.kind,
          event.seam,
          true,
        ]);
      }
      return mine.map((event) =>
        [
          event.kind,
          event.seam,
          event.kind === 'outcome' ? event.outcome : event.decision,
          event.detail,
        ].filter((part) => part !== undefined),
      );
    }
    const callTool = (name: string) => () => client.callTool({ name, arguments: {} });

    it('allowed and ran', async () => {
      expect(await story('fine', callTool('fine'))).toEqual([
        ['decision', 'tool', 'allow'],
        ['outcome', 'tool', 'ok'],
      ]);
    });

    it('denied: no outcome, it never ran', async () => {
      expect(await story('forbidden', callTool('forbidden'))).toEqual([
        ['decision', 'tool', 'deny', 'not here'],
      ]);
    });

    it('asked and approved by the caller', async () => {
      answer = async () => ({ action: 'accept', content: { approve: true } });
      const steps = await story('guarded', callTool('guarded'));
      // The modern era asks in a result and the client retries: the retry is decided again.
      const asked = era === 'modern' ? [['decision', 'tool', 'ask', 'Run guarded?']] : [];
      expect(steps).toEqual([
        ['decision', 'tool', 'ask', 'Run guarded?'],
        ...asked,
        ['decision', 'elicitation', 'allow', 'user approved'],
        ['outcome', 'tool', 'ok'],
      ]);
    });

    it('asked and declined: no outcome', async () => {
      answer = async () => ({ action: 'decline' });
      const steps = await story('guarded', callTool('guarded'));
      const asked = era === 'modern' ? [['decision', 'tool', 'ask', 'Run guarded?']] : [];
      expect(steps).toEqual([
        ['decision', 'tool', 'ask', 'Run guarded?'],
        ...asked,
        ['decision', 'elicitation', 'deny', 'user declined'],
      ]);
    });

    it('the tool threw, or answered an error result', async () => {
      expect(await story('explodes', callTool('explodes'))).toEqual([
        ['decision', 'tool', 'allow'],
        ['outcome', 'tool', 'threw'],
      ]);
      expect(await story('refuses', callTool('refuses'))).toEqual([
        ['decision', 'tool', 'allow'],
        ['outcome', 'tool', 'isError'],
      ]);
    });

    it('let through, then refused before it ran: a deny names the decision, no outcome', async () => {
      const refusals = [
        ['fine', { text: 5 }, 'invalid_arguments'],
        ['guarded', { text: 5 }, 'invalid_arguments'],
        ['no_such_tool', {}, 'unknown_tool'],
      ] as const;
      for (const [name, args, reason] of refusals) {
        const from = events.length;
        await client.callTool({ name, arguments: args }).catch(() => undefined);
        const mine = events.slice(from).filter((event) => event.name === name);
        const seam = name === 'guarded' ? 'ask' : 'allow';
        expect(mine.map((e) => [e.kind, e.seam, e.decision, e.detail ?? null])).toEqual([
          ['decision', 'tool', seam, name === 'guarded' ? 'Run guarded?' : null],
          ['decision', 'tool', 'deny', reason],
        ]);
        expect(mine[1]!.of).toBe(mine[0]!.id);
      }
    });

    it('the tool ran past limits.toolTimeoutMs', async () => {
      expect(await story('waits', callTool('waits'))).toEqual([
        ['decision', 'tool', 'allow'],
        ['outcome', 'tool', 'timeout'],
      ]);
    });

    if (era === 'legacy') {
      it('asked, and the caller never answered: approval timed out, no outcome', async () => {
        answer = () => new Promise(() => undefined);
        expect(await story('guarded', callTool('guarded'))).toEqual([
          ['decision', 'tool', 'ask', 'Run guarded?'],
          ['decision', 'elicitation', 'deny', 'elicitation timed out'],
        ]);
      });
    } else {
      // The modern era holds nothing between rounds: the ask's time (elicitationTimeoutMs) is
      // sealed in its state, and an approval that comes back after it is refused.
      it('asked, and the approval came back too late: approval expired, no outcome', async () => {
        answer = () => approvalAt(Date.now() + 3_000);
        expect(await story('guarded', callTool('guarded'))).toEqual([
          ['decision', 'tool', 'ask', 'Run guarded?'],
          ['decision', 'tool', 'ask', 'Run guarded?'],
          ['decision', 'elicitation', 'deny', 'approval expired'],
        ]);
      });
    }

    it('cancelled by the caller while it ran', async () => {
      const cancel = new AbortController();
      const steps = await story('waits', async () => {
        const call = client.callTool({ name: 'waits', arguments: {} }, { signal: cancel.signal });
        // The decision is recorded before the tool runs: cancel once it is.
        await new Promise<void>((resolve) => {
          const check = t.app.get(McpWarden).audit$.subscribe((event) => {
            if (event.name === 'waits' && event.kind === 'decision') resolve();
          });
          void call.catch(() => check.unsubscribe());
        });
        cancel.abort();
        await call.catch(() => undefined);
        // The outcome is written when the handler settles, after the cancellation arrives.
        await new Promise<void>((resolve) => {
          const seen = () => events.some((e) => e.name === 'waits' && e.outcome === 'cancelled');
          if (seen()) return resolve();
          const sub = t.app
            .get(McpWarden)
            .audit$.subscribe(() => seen() && (sub.unsubscribe(), resolve()));
        });
      });
      expect(steps).toEqual([
        ['decision', 'tool', 'allow'],
        ['outcome', 'tool', 'cancelled'],
      ]);
    });

    it('the sink holds every event, in a chain that verifies', async () => {
      await client.close();
      await t.close();
      const kept = (await recordsOf(dir)).map((record) => record.id);
      expect(kept).toEqual(events.map((event) => event.id));
      expect(await verifySource(dir)).toEqual([expect.objectContaining({ breaks: [] })]);
    });
  },
);

@Injectable()
class ScopedTool {
  @McpTool({ description: 'Needs a scope nobody here has', scopes: ['admin'] })
  admin_only() {
    return 'never';
  }
}

describe('audit records of a call the caller’s scopes cannot cover (HTTP 403)', () => {
  it('the seam allowed it, the scopes refused it: a deny names the decision, no outcome', async () => {
    const events: McpAuditEvent[] = [];
    const t = await createHttpApp(
      {
        authorizer: auditAuthorizer,
        authorizerSource: 'configured',
        http: {
          authenticate: () => ({
            subject: 'alice',
            issuer: 'https://idp.example',
            scopes: [],
            claims: { client_id: 'agent-7' },
          }),
        },
        audit: { sinks: [McpAuditSinks.jsonl({ dir: logDir() })] },
      },
      [ScopedTool],
    );
    try {
      t.app.get(McpWarden).audit$.subscribe((event) => events.push(event));
      const { sessionId } = await t.initialize();
      const response = await t.post(
        t.message('tools/call', { name: 'admin_only', arguments: {} }),
        { 'mcp-session-id': sessionId },
      );
      expect(response.status).toBe(403);
      const mine = events.filter((event) => event.name === 'admin_only');
      expect(mine.map((e) => [e.kind, e.seam, e.decision, e.detail ?? null])).toEqual([
        ['decision', 'tool', 'allow', null],
        ['decision', 'tool', 'deny', 'insufficient_scope'],
      ]);
      // The decision's inputs name the caller: subject, issuer and client.
      for (const event of mine) {
        expect(event).toMatchObject({
          principal: 'alice',
          issuer: 'https://idp.example',
          clientId: 'agent-7',
        });
      }
      expect(mine[1]!.of).toBe(mine[0]!.id);
    } finally {
      await t.close();
    }
  });
});

describe('audit records of a task (2026-07-28, the tasks extension, over HTTP)', () => {
  let t: HttpTestApp;
  let tools: AuditedTools;
  const events: McpAuditEvent[] = [];

  beforeAll(async () => {
    t = await createHttpApp(
      {
        authorizer: auditAuthorizer,
        authorizerSource: 'configured',
        audit: { sinks: [McpAuditSinks.jsonl({ dir: logDir() })] },
        tasks: { pollIntervalMs: 10 },
      },
      [AuditedTools],
    );
    tools = t.app.get(AuditedTools);
    t.app.get(McpWarden).audit$.subscribe((event) => events.push(event));
  });
  afterAll(() => t.close());

  /** A modern request declaring the tasks extension. */
  const modern = (method: string, params: Record<string, unknown>) =>
    modernRequest(t.url, method, params);

  async function ended(taskId: string): Promise<string> {
    for (;;) {
      const task = await modern('tasks/get', { taskId });
      if (task.status !== 'working') return task.status;
    }
  }

  const toolEvents = () => events.filter((event) => event.seam !== 'read');

  it('the decision when the call is made, the outcome when the task ends, linked', async () => {
    const created = await modern('tools/call', { name: 'long_job', arguments: {} });
    expect(created.resultType).toBe('task');
    // The call answered; the tool still runs: its decision is kept, its outcome is not yet.
    expect(
      toolEvents().map((event) => [
        event.kind,
        event.kind === 'outcome' ? event.outcome : event.decision,
      ]),
    ).toEqual([['decision', 'allow']]);
    tools.gate.resolve();
    expect(await ended(created.taskId)).toBe('completed');
    const [decision, outcome] = toolEvents();
    expect(outcome).toMatchObject({ kind: 'outcome', outcome: 'ok', of: decision!.id });
    // Every tasks/get passed the read seam, and was recorded as a read.
    expect(events.some((event) => event.seam === 'read' && event.name === 'tasks/get')).toBe(true);
  });

  it('a task cancelled while it runs: outcome cancelled', async () => {
    const from = events.length;
    tools.gate = deferred();
    const created = await modern('tools/call', { name: 'long_job', arguments: {} });
    await modern('tasks/cancel', { taskId: created.taskId });
    expect(await ended(created.taskId)).toBe('cancelled');
    const mine = events.slice(from).filter((event) => event.seam !== 'read');
    expect(
      mine.map((event) => [event.kind, event.kind === 'outcome' ? event.outcome : event.decision]),
    ).toEqual([
      ['decision', 'allow'],
      ['outcome', 'cancelled'],
    ]);
    expect(mine[1]!.of).toBe(mine[0]!.id);
  });
});
