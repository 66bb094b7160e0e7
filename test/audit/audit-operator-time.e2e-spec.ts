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
import { logDir } from './audit-app.js';

/*
 * Who answered an ask, and when: an operator's approval is recorded with the time the operator
 * decided at the desk, not the time the call came back for it, in both eras.
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
      const approval = events.find((e) => e.seam === 'operator' && e.decision === 'allow');
      expect(approval).toMatchObject({
        operator: 'operator-1',
        time: new Date(decidedAt).toISOString(),
      });
    } finally {
      await client.close();
      await t.close();
    }
  });
});
