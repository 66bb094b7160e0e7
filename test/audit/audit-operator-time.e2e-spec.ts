import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Injectable } from '@nestjs/common';
import { filter, firstValueFrom } from 'rxjs';
import {
  MCP_OPERATOR_DESK,
  McpAuditSinks,
  McpTool,
  McpWarden,
  type McpAuditEvent,
  type McpOperatorAskEvent,
  type McpOperatorDesk,
} from '../../src/index.js';
import { createHttpApp } from '../support/http-app.js';
import { until } from '../support/until.js';
import { logDir, recordsOf } from './audit-app.js';

/*
 * Who answered an ask, and when: an operator's decision is recorded as it is taken at the desk,
 * linked to the call that asked, and the call's own record of it is stamped with the time the
 * operator decided, not the time the call came back for it, in both eras.
 */

@Injectable()
class ReleasedTools {
  @McpTool({ description: 'Released by an operator', input: { type: 'object' } })
  released() {
    return 'released';
  }
}

const OPERATOR = { subject: 'operator-1', issuer: 'https://idp.test', scopes: ['mcp:approve'] };

describe.each(['2025-11-25', '2026-07-28'] as const)('audit: an operator’s answer (%s)', (era) => {
  it('is stamped when the operator decided', async () => {
    const events: McpAuditEvent[] = [];
    const t = await createHttpApp(
      {
        authorizer: () => ({ kind: 'ask', prompt: 'Release?', approver: 'operator' }),
        approvals: { answerWithinMs: 100 },
        audit: { sinks: [McpAuditSinks.jsonl({ dir: logDir() })] },
      },
      [ReleasedTools],
    );
    t.app.get(McpWarden).audit$.subscribe((event) => events.push(event));
    const desk = t.app.get<McpOperatorDesk>(MCP_OPERATOR_DESK);
    const client = new Client(
      { name: 'operator-time', version: '1' },
      era === '2026-07-28' ? { versionNegotiation: { mode: { pin: era } } } : {},
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(t.url)));
    try {
      const pending = firstValueFrom(
        desk.events$.pipe(filter((event) => event.type === 'pending')),
      ) as Promise<Extract<McpOperatorAskEvent, { type: 'pending' }>>;
      const first = await client.callTool({ name: 'released', arguments: {} });
      expect(first.isError).toBe(true);
      const { ask } = await pending;
      const decided = await desk.decide(ask.id, OPERATOR, { approve: true, via: 'api' });
      if (!decided.ok) throw new Error(`not decided: ${decided.problem}`);
      const decidedAt = decided.record.decision!.decidedAt;
      // The call comes back for the decision in a later millisecond.
      await until(() => Date.now() > decidedAt + 2, 'a later millisecond');
      const again = await client.callTool({ name: 'released', arguments: {} });
      expect(again.isError).toBeFalsy();
      const approvals = events.filter((e) => e.seam === 'operator' && e.decision === 'allow');
      // The desk's record, then the record of the call that took the approval.
      expect(approvals.map((e) => e.detail)).toEqual([
        'operator approved via api',
        'operator approved',
      ]);
      for (const approval of approvals) {
        expect(approval).toMatchObject({
          operator: 'operator-1',
          time: new Date(decidedAt).toISOString(),
        });
      }
    } finally {
      await client.close();
      await t.close();
    }
  });

  it('records a deny at the desk that no call comes back for', async () => {
    const dir = logDir();
    const t = await createHttpApp(
      {
        authorizer: () => ({ kind: 'ask', prompt: 'Release?', approver: 'operator' }),
        approvals: { answerWithinMs: 100 },
        audit: { sinks: [McpAuditSinks.jsonl({ dir })] },
        http: {
          authenticate: () => ({ subject: 'caller-7', issuer: 'https://idp.test', scopes: [] }),
        },
      },
      [ReleasedTools],
    );
    const desk = t.app.get<McpOperatorDesk>(MCP_OPERATOR_DESK);
    const client = new Client(
      { name: 'operator-deny', version: '1' },
      era === '2026-07-28' ? { versionNegotiation: { mode: { pin: era } } } : {},
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(t.url)));
    let decidedAt: number | undefined;
    try {
      const pending = firstValueFrom(
        desk.events$.pipe(filter((event) => event.type === 'pending')),
      ) as Promise<Extract<McpOperatorAskEvent, { type: 'pending' }>>;
      const first = await client.callTool({ name: 'released', arguments: { n: 1 } });
      expect(first.isError).toBe(true);
      const { ask } = await pending;
      const decided = await desk.decide(ask.id, OPERATOR, {
        approve: false,
        reason: 'not this week',
        via: 'console',
      });
      if (!decided.ok) throw new Error(`not decided: ${decided.problem}`);
      decidedAt = decided.record.decision!.decidedAt;
    } finally {
      // The caller goes away without asking again: only the desk saw the decision.
      await client.close();
      await t.close();
    }
    const records = await recordsOf(dir);
    const call = records.find((r) => r.kind === 'decision' && r.seam === 'tool');
    expect(call).toMatchObject({ name: 'released', decision: 'ask', principal: 'caller-7' });
    const denied = records.filter((r) => r.seam === 'operator' && r.decision === 'deny');
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatchObject({
      kind: 'decision',
      of: call!.id,
      name: 'released',
      operator: 'operator-1',
      detail: 'operator denied via console: not this week',
      time: new Date(decidedAt!).toISOString(),
      connId: call!.connId,
      requestId: call!.requestId,
      transport: 'http',
      principal: 'caller-7',
      issuer: 'https://idp.test',
      era: call!.era,
    });
  });
});
