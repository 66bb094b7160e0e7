import { registerMetrics } from '../../../../test/telemetry/otel-harness.js';
import type { McpAuditEntry, McpAuditSink } from '../audit-sink.interface.js';
import { McpAuditJournalService } from './audit-journal.service.js';
import { SinkWriter } from './sink-writer.js';

/** A sink that notes when each write began and what it held, and says when one ended. */
class NotingSink implements McpAuditSink {
  readonly name = 'noting';
  readonly writes: { at: number; seqs: number[] }[] = [];
  private waiting: (() => void)[] = [];

  async write(entries: readonly McpAuditEntry[]): Promise<void> {
    this.writes.push({ at: performance.now(), seqs: entries.map((entry) => entry.seq) });
    for (const done of this.waiting.splice(0)) setImmediate(done);
  }

  /** Resolves after the next write. */
  nextWrite(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}

const entry = (seq: number): McpAuditEntry => ({
  seq,
  instance: 'i',
  line: `{"seq":${seq}}`,
  record: { id: String(seq), kind: 'checkpoint', time: '', checkpoint: '' },
});

/* Queues a record and has it written, as the journal's seal does. */
function push(w: SinkWriter, record: McpAuditEntry): void {
  w.enqueue(record);
  w.wake();
}

function writer(sink: NotingSink, minIntervalMs: number) {
  const kept: number[] = [];
  const events = { kept: (seq: number) => kept.push(seq), failed: () => {}, dropped: () => {} };
  const made = new SinkWriter(sink, 1_000, 0, events, minIntervalMs);
  made.start();
  return { writer: made, kept };
}

describe('SinkWriter: minWriteIntervalMs', () => {
  it('writes the first record of a quiet sink at the next turn, then spaces writes by the interval', async () => {
    const sink = new NotingSink();
    const { writer: w, kept } = writer(sink, 40);
    const first = sink.nextWrite();
    const pushedAt = performance.now();
    push(w, entry(1));
    await first;
    // No interval had begun: no timer stood between the record and its write.
    expect(sink.writes[0]!.at - pushedAt).toBeLessThan(40);

    // Records that arrive now gather until 40 ms after the first write began: one write.
    const second = sink.nextWrite();
    for (let seq = 2; seq <= 5; seq += 1) push(w, entry(seq));
    await second;
    expect(sink.writes.map((write) => write.seqs)).toEqual([[1], [2, 3, 4, 5]]);
    // The writer waits out the whole interval, even where a timer fires early.
    expect(sink.writes[1]!.at - sink.writes[0]!.at).toBeGreaterThanOrEqual(40 - 0.5);
    expect(kept).toEqual([1, 5]);
  });

  it('without an interval, writes at the next turn of the loop', async () => {
    const sink = new NotingSink();
    const { writer: w } = writer(sink, 0);
    for (const seq of [1, 2]) {
      const written = sink.nextWrite();
      push(w, entry(seq));
      await written;
    }
    expect(sink.writes.map((write) => write.seqs)).toEqual([[1], [2]]);
  });

  it('a drain at shutdown writes what waits for the interval at once', async () => {
    const sink = new NotingSink();
    const { writer: w } = writer(sink, 60_000);
    const first = sink.nextWrite();
    push(w, entry(1));
    await first;
    push(w, entry(2));
    await w.drain(5_000);
    expect(sink.writes.map((write) => write.seqs)).toEqual([[1], [2]]);
    expect(w.pending).toBe(0);
  });
});

const event = (id: string) =>
  ({
    id,
    kind: 'decision',
    time: new Date().toISOString(),
    connId: 'c',
    requestId: 1,
    transport: 'stdio',
    seam: 'tool',
    name: 'fine',
    decision: 'allow',
  }) as const;

describe('McpAuditJournalService: mcp_warden.audit.records', () => {
  it('counts every record a sink kept, not every write', async () => {
    const otel = registerMetrics();
    const sink = new NotingSink();
    const journal = new McpAuditJournalService('test', { sinks: [sink] });
    try {
      await journal.onApplicationBootstrap();
      const written = sink.nextWrite();
      for (const id of ['a', 'b', 'c', 'd', 'e']) journal.append(event(id), false);
      await written;
      expect(sink.writes.map((write) => write.seqs)).toEqual([[1, 2, 3, 4, 5]]);
      const kept = (await otel.collect()).get('mcp_warden.audit.records');
      expect(kept?.dataPoints.map((point) => [point.attributes, point.value])).toEqual([
        [{ 'mcp.server.name': 'test', sink: 'noting' }, 5],
      ]);
    } finally {
      await journal.onApplicationShutdown();
      await otel.dispose();
    }
  });
});

describe('McpAuditJournalService: the recent window', () => {
  it('is kept only once a reader asks for it', async () => {
    const sink = new NotingSink();
    const journal = new McpAuditJournalService('test', { sinks: [sink] });
    await journal.onApplicationBootstrap();
    journal.append(event('a'), false);
    expect(journal.recentRecords()).toEqual([]);
    journal.keepRecent();
    journal.append(event('b'), false);
    expect(journal.recentRecords().map((kept) => (kept.record as { id: string }).id)).toEqual([
      'b',
    ]);
    await journal.onApplicationShutdown();
  });
});
