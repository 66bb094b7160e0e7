import { generateKeyPairSync } from 'node:crypto';
import { deferred, type Deferred } from '../../../../test/support/deferred.js';
import { registerMetrics } from '../../../../test/telemetry/otel-harness.js';
import { nextTurn } from '../../core/common/next-turn.js';
import { until } from '../../../../test/support/until.js';
import type { McpAuditEvent } from '../../authorization/audit/mcp-audit-event.interface.js';
import type { McpAuditEntry, McpAuditSink } from '../audit-sink.interface.js';
import { verifyChains } from '../verify/chain-verifier.js';
import { McpAuditJournalService, SEAL_AT } from './audit-journal.service.js';

/** A sink that keeps every line and each write's seqs, and can hold its writes until `release()`. */
class HoldingSink implements McpAuditSink {
  readonly name = 'holding';
  readonly lines: string[] = [];
  readonly batches: number[][] = [];
  private held?: Deferred<void>;

  hold(): void {
    this.held = deferred();
  }

  release(): void {
    this.held?.resolve();
    this.held = undefined;
  }

  async write(entries: readonly McpAuditEntry[]): Promise<void> {
    this.batches.push(entries.map((entry) => entry.seq));
    await this.held?.promise;
    for (const entry of entries) this.lines.push(entry.line);
  }
}

const event = (n: number): McpAuditEvent => ({
  id: `event-${n}`,
  kind: 'decision',
  time: new Date(0).toISOString(),
  connId: 'c',
  requestId: n,
  transport: 'http',
  seam: 'tool',
  name: 'fine',
  decision: 'allow',
});

/* A write has begun once the loop has turned (`nextTurn()`): a writer flushes at the next turn. */
describe('McpAuditJournalService: records are chained a batch at a time', () => {
  it('chains the records of many seals into one chain that verifies, in order', async () => {
    const sink = new HoldingSink();
    const journal = new McpAuditJournalService('test', { sinks: [sink] });
    await journal.onApplicationBootstrap();
    const count = SEAL_AT * 2 + 7;
    for (let n = 1; n <= count; n++) journal.append(event(n), false);
    await journal.onApplicationShutdown();

    const seqs = sink.lines.map((line) => (JSON.parse(line) as { seq: number }).seq);
    expect(seqs).toEqual(Array.from({ length: count }, (_, index) => index + 1));
    const [report, ...others] = verifyChains(
      sink.lines.map((line, index) => ({ where: `line ${index + 1}`, line })),
    );
    expect(others).toEqual([]);
    expect(report).toMatchObject({ records: count, lastSeq: count, breaks: [] });
  });

  it('freezes every record it chains, its signed checkpoints too: sinks share them', async () => {
    const records: McpAuditEntry['record'][] = [];
    const sink: McpAuditSink = {
      name: 'keeping',
      write: async (entries) => {
        for (const entry of entries) records.push(entry.record);
      },
    };
    const { privateKey } = generateKeyPairSync('ed25519');
    const journal = new McpAuditJournalService('test', {
      sinks: [sink],
      signing: { privateKey, everyRecords: 2 },
    });
    await journal.onApplicationBootstrap();
    for (let n = 1; n <= 3; n++) journal.append(event(n), false);
    await journal.onApplicationShutdown();
    expect(records.map((record) => record.kind)).toEqual([
      'decision',
      'decision',
      'checkpoint',
      'decision',
      'checkpoint',
    ]);
    expect(records.filter((record) => !Object.isFrozen(record))).toEqual([]);
  });

  it('tells the console where its last checkpoint is', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const journal = new McpAuditJournalService('test', {
      sinks: [new HoldingSink()],
      signing: { privateKey, everyRecords: 2 },
    });
    await journal.onApplicationBootstrap();
    expect(journal.chainState().lastCheckpoint).toBeUndefined();
    for (let n = 1; n <= 5; n++) journal.append(event(n), false);
    // Records 1, 2, checkpoint 3, records 4, 5, checkpoint 6.
    expect(journal.chainState()).toMatchObject({ signed: true, seq: 7, lastCheckpoint: 6 });
    await journal.onApplicationShutdown();
  });

  it('chains at once past SEAL_AT records, so a stalled sink never holds more than its bound', async () => {
    const otel = registerMetrics();
    const sink = new HoldingSink();
    const journal = new McpAuditJournalService('test', { sinks: [sink], maxPending: 100 });
    try {
      await journal.onApplicationBootstrap();
      sink.hold();
      journal.append(event(0), false);
      await nextTurn();
      // The first write holds its record in the queue; SEAL_AT more, in one turn, are chained
      // at the last of them: 99 find room and the rest are dropped, counted now.
      for (let n = 1; n <= SEAL_AT + 10; n++) journal.append(event(n), false);
      const dropped = (await otel.collect()).get('mcp_warden.audit.dropped');
      expect(dropped?.dataPoints.map((point) => point.value)).toEqual([SEAL_AT - 99]);
    } finally {
      sink.release();
      await journal.onApplicationShutdown();
      await otel.dispose();
    }
  });

  it('refuses a waiting call at once when its record would find no room, counting records not yet chained', async () => {
    const sink = new HoldingSink();
    const journal = new McpAuditJournalService('test', {
      sinks: [sink],
      failClosed: true,
      maxPending: 5,
    });
    await journal.onApplicationBootstrap();
    sink.hold();
    const first = journal.append(event(1), true);
    await nextTurn();
    const settled: string[] = [];
    const waits = [2, 3, 4, 5, 6].map((n) =>
      journal.append(event(n), true)!.then(
        () => settled.push(`${n} kept`),
        (error: Error) => settled.push(`${n} refused: ${error.message}`),
      ),
    );
    await nextTurn();
    // Four wait in the queue behind the first; the fifth would be the sixth record queued.
    expect(settled).toEqual(['6 refused: an audit sink is unavailable']);
    sink.release();
    await Promise.all([first, ...waits]);
    expect(settled).toEqual([
      '6 refused: an audit sink is unavailable',
      '2 kept',
      '3 kept',
      '4 kept',
      '5 kept',
    ]);
    await journal.onApplicationShutdown();
  });

  it("a write takes the records numbered since the last turn ended: a resumed call's outcome goes with it", async () => {
    const sink = new HoldingSink();
    const journal = new McpAuditJournalService('test', { sinks: [sink], failClosed: true });
    await journal.onApplicationBootstrap();
    sink.hold();
    const first = journal.append(event(1), true)!;
    await nextTurn();
    // Behind the held write, chained at the end of their turn.
    journal.append(event(2), false);
    journal.append(event(3), false);
    await nextTurn();
    // As a call resumed by its kept decision records its outcome, before the loop turns.
    const resumed = first.then(() => journal.append(event(4), false));
    sink.release();
    await resumed;
    // The next write begins at the end of this turn (before a shutdown would chain what waits).
    await nextTurn();
    await journal.onApplicationShutdown();
    expect(sink.batches).toEqual([[1], [2, 3, 4]]);
  });
});

describe('McpAuditJournalService: failClosed waits on the sinks that keep records', () => {
  it('a sink that only hands records on (keeps: false) neither holds nor refuses a call', async () => {
    const kept = new HoldingSink();
    // An exporter's sink, its write never settling and then failing: neither is a record kept.
    const handedOn = new (class extends HoldingSink {
      readonly keeps = false;
      failing = false;
      override async write(entries: readonly McpAuditEntry[]): Promise<void> {
        await super.write(entries);
        if (this.failing) throw new Error('exporter down');
      }
    })();
    handedOn.hold();
    const journal = new McpAuditJournalService('test', {
      sinks: [kept, handedOn],
      failClosed: true,
      failClosedTimeoutMs: 60_000,
    });
    await journal.onApplicationBootstrap();
    await expect(journal.append(event(1), true)).resolves.toBeUndefined();
    expect(kept.lines).toHaveLength(1);
    handedOn.failing = true;
    handedOn.release();
    await expect(journal.append(event(2), true)).resolves.toBeUndefined();
    expect(kept.lines).toHaveLength(2);
    // The sink that keeps still decides: while its write is held, the call waits.
    kept.hold();
    let settled = false;
    const waiting = journal.append(event(3), true)!.finally(() => (settled = true));
    await nextTurn();
    await nextTurn();
    expect(settled).toBe(false);
    kept.release();
    await expect(waiting).resolves.toBeUndefined();
    await journal.onApplicationShutdown();
  });
});

describe('McpAuditJournalService: shutdown', () => {
  it('keeps records made while it drains, signs them last, and counts those after', async () => {
    const otel = registerMetrics();
    const sink = new HoldingSink();
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const journal = new McpAuditJournalService('test', {
      sinks: [sink],
      signing: { privateKey, everyRecords: 1_000 },
    });
    try {
      await journal.onApplicationBootstrap();
      journal.append(event(1), false);
      await nextTurn();
      sink.hold();
      journal.append(event(2), false);
      const closing = journal.beforeApplicationShutdown();
      // A call still running as the app closes: its outcome comes during the drain.
      journal.append(event(3), false);
      sink.release();
      await closing;
      journal.append(event(4), false);
      await journal.onApplicationShutdown();
      const records = sink.lines.map((line) => JSON.parse(line) as { id: string; kind: string });
      expect(
        records.map((record) => (record.id.startsWith('event-') ? record.id : record.kind)),
      ).toEqual(['event-1', 'event-2', 'event-3', 'checkpoint']);
      const [report] = verifyChains(
        sink.lines.map((line, index) => ({ where: `line ${index + 1}`, line })),
        publicKey,
      );
      expect(report).toMatchObject({ breaks: [], unsignedTail: 0, verifiedCheckpoints: 1 });
      const dropped = (await otel.collect()).get('mcp_warden.audit.dropped');
      expect(dropped?.dataPoints.map((point) => point.value)).toEqual([1]);
    } finally {
      await otel.dispose();
    }
  });
});

describe('McpAuditJournalService: a write that never ends', () => {
  it('takes its sink for failing after failClosedTimeoutMs, refusing calls at once until a write ends', async () => {
    const sink = new HoldingSink();
    const journal = new McpAuditJournalService('test', {
      sinks: [sink],
      failClosed: true,
      failClosedTimeoutMs: 50,
    });
    await journal.onApplicationBootstrap();
    sink.hold();
    await expect(journal.append(event(1), true)).rejects.toThrow();
    await until(
      () => !journal.chainState().sinks[0]!.healthy,
      'the stalled sink taken for failing',
    );
    // No wait on a sink known to be failing: refused before any timer.
    await expect(journal.append(event(2), true)).rejects.toThrow('an audit sink is unavailable');
    sink.release();
    await until(() => journal.chainState().sinks[0]!.healthy, 'the write ended');
    await expect(journal.append(event(3), true)).resolves.toBeUndefined();
    await journal.onApplicationShutdown();
    expect(sink.lines.map((line) => (JSON.parse(line) as { id: string }).id)).toEqual([
      'event-1',
      'event-2',
      'event-3',
    ]);
  });
});

describe('McpAuditJournalService: shutdown under load', () => {
  it('signs its final checkpoint though records keep coming until it closes', async () => {
    // A sink whose every write takes two turns, while two calls come each turn: its queue is
    // never empty when a write ends.
    const sink = new (class extends HoldingSink {
      override async write(entries: readonly McpAuditEntry[]): Promise<void> {
        await nextTurn();
        await nextTurn();
        await super.write(entries);
      }
    })();
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const journal = new McpAuditJournalService('test', {
      sinks: [sink],
      signing: { privateKey, everyRecords: 1_000 },
    });
    await journal.onApplicationBootstrap();
    let n = 0;
    let closed = false;
    // A call a turn, until the journal has closed.
    const traffic = (async () => {
      while (!closed) {
        journal.append(event(++n), false);
        journal.append(event(++n), false);
        await nextTurn();
      }
    })();
    await until(() => n > 20, 'traffic under way');
    await journal.beforeApplicationShutdown();
    closed = true;
    await traffic;
    await journal.onApplicationShutdown();
    const records = sink.lines.map((line) => JSON.parse(line) as { kind: string });
    expect(records.at(-1)!.kind).toBe('checkpoint');
    const [report] = verifyChains(
      sink.lines.map((line, index) => ({ where: `line ${index + 1}`, line })),
      publicKey,
    );
    expect(report).toMatchObject({ breaks: [], unsignedTail: 0, verifiedCheckpoints: 1 });
  });
});
