import { Injectable } from '@nestjs/common';
import { McpAuditSinks, McpTool, McpWarden, type McpAuditEvent } from '../../src/index.js';
import { deferred } from '../support/deferred.js';
import { createHttpApp } from '../support/http-app.js';
import { until } from '../support/until.js';
import { logDir, modernRequest, recordsOf } from './audit-app.js';

/*
 * A task whose tool ignores its signal when the server shuts down: the server writes the task
 * failed after its grace, and its story still ends in the sink, with the outcome recorded then
 * (`cancelled`, `shutdown_before_end`), not lost when the tool ends after the journal closed.
 */

@Injectable()
class StubbornTools {
  /** Opened by the test once the server is down: the tool ends only then. */
  readonly gate = deferred();
  readonly ran: string[] = [];

  @McpTool({ description: 'Ignores its signal', input: { type: 'object' }, task: 'optional' })
  async stubborn() {
    this.ran.push('stubborn');
    await this.gate.promise;
    this.ran.push('stubborn ended');
    return 'done';
  }
}

describe('audit: a task still running at shutdown', () => {
  it('ends its story in the sink though its tool ignores the signal', async () => {
    const dir = logDir();
    const t = await createHttpApp(
      { authorizer: () => ({ kind: 'allow' }), audit: { sinks: [McpAuditSinks.jsonl({ dir })] } },
      [StubbornTools],
    );
    const tools = t.app.get(StubbornTools);
    const events: McpAuditEvent[] = [];
    t.app.get(McpWarden).audit$.subscribe((event) => events.push(event));
    const created = await modernRequest(t.url, 'tools/call', { name: 'stubborn', arguments: {} });
    expect(created.resultType).toBe('task');
    // The server waits its grace for the tool, then writes the task off.
    await t.close();
    // The tool ends after all: its own end adds nothing to the story.
    tools.gate.resolve();
    await until(() => tools.ran.includes('stubborn ended'), 'the tool ended');
    const kept = (await recordsOf(dir)).filter((record) => record.name === 'stubborn');
    expect(kept.map((record) => [record.kind, record.outcome, record.detail])).toEqual([
      ['decision', undefined, undefined],
      ['outcome', 'cancelled', 'shutdown_before_end'],
    ]);
    expect(kept[1]!.of).toBe(kept[0]!.id);
    // Nor on the stream, which outlives the journal: one outcome, the shutdown's.
    const outcomes = events.filter((e) => e.name === 'stubborn' && e.kind === 'outcome');
    expect(outcomes.map((e) => [e.outcome, e.detail])).toEqual([
      ['cancelled', 'shutdown_before_end'],
    ]);
  }, 20_000);
});
