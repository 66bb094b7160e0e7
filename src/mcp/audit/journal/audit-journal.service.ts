import {
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { createPublicKey, randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { McpAuditJournal } from '../../authorization/audit/audit-journal.interface.js';
import type { McpAuditEvent } from '../../authorization/audit/mcp-audit-event.interface.js';
import type { McpAuditOptions, McpCheckpointPublisher } from '../audit-options.interface.js';
import type { McpAuditEntry } from '../audit-sink.interface.js';
import { McpAuditMetrics } from '../audit-metrics.js';
import type { McpAuditCheckpointRecord } from '../chain/audit-record.js';
import { signCheckpoint } from '../chain/checkpoint-note.js';
import { SinkWriter } from './sink-writer.js';
import { checkpointSigner, type CheckpointSigner } from './checkpoint-signer.js';
import { RecordWaiters } from './record-waiters.js';
import { RecordChain } from './record-chain.js';
import { RecentWindow } from './recent-window.js';
import type { McpAuditChainState, McpAuditView } from '../audit-view.interface.js';
import { verifyChains } from '../verify/chain-verifier.js';
import { serverAttributes } from '../../core/servers/server-attribute.js';

const DRAIN_AT_SHUTDOWN_MS = 5_000;
/* Of which the records numbered before the shutdown began may take this much; the rest is the final checkpoint's. */
const DRAIN_BEFORE_CHECKPOINT_MS = 4_000;
/** Without failClosed, a write this long is taken for a failing sink (its metric, its log). */
const STALLED_AFTER_MS = 30_000;
/** Records that may wait for their seal; past it the journal chains them at once. */
export const SEAL_AT = 256;

/**
 * The audit journal (docs/audit.md): chains every event of this instance (each record's
 * `prev` is the SHA-256 of the previous record's line), hands it to every sink's bounded
 * queue, signs a checkpoint every N records or T ms, and, with `failClosed`, tells a call when
 * its decision record is kept by every sink. It never blocks the event loop: sinks write
 * asynchronously, in batches.
 */
export class McpAuditJournalService
  implements
    McpAuditJournal,
    McpAuditView,
    OnApplicationBootstrap,
    BeforeApplicationShutdown,
    OnApplicationShutdown
{
  private readonly logger = new Logger('McpAudit');
  private readonly metrics: McpAuditMetrics;
  readonly failClosed: boolean;
  readonly instance: string;
  private readonly origin: string;
  private readonly writers: SinkWriter[];
  /** The writers of sinks that keep records (`keeps`): what a call under failClosed waits on. */
  private readonly keepers: SinkWriter[];
  private readonly signer?: CheckpointSigner;
  private readonly waiters: RecordWaiters;
  private readonly chain: RecordChain;
  private sinceCheckpoint = 0;
  private ticker?: NodeJS.Timeout;
  /** Set once the shutdown's last drain begins: records from then on are dropped and counted. */
  private closed = false;
  private shuttingDown?: Promise<void>;
  private saidClosed = false;
  private readonly recent = new RecentWindow();
  private lastCheckpoint?: number;
  /** The last checkpoint's publication (settled, whatever its outcome). */
  private published: Promise<void> = Promise.resolve();

  /**
   * `clusterCheckpoints`: cluster mode's Redis, the second place for checkpoints when
   * `signing.publish` names none.
   */
  constructor(
    serverName: string,
    options: McpAuditOptions,
    clusterCheckpoints: McpCheckpointPublisher | null = null,
  ) {
    this.metrics = new McpAuditMetrics(serverAttributes(serverName));
    this.failClosed = options.failClosed === true;
    const failClosedTimeoutMs = options.failClosedTimeoutMs ?? 2_000;
    this.waiters = new RecordWaiters(failClosedTimeoutMs);
    // One chain per start: a restart under a fixed `audit.instance` (a pod's name, say) would
    // otherwise number its records from 1 again, into the same files or rows as the last start.
    const name = options.instance ?? `${hostname()}-${process.pid}`;
    this.instance = `${name}-${randomBytes(4).toString('hex')}`;
    this.origin = `mcp-warden/${serverName}/${this.instance}`;
    this.chain = new RecordChain(this.instance);
    const maxPending = options.maxPending ?? 10_000;
    this.writers = (options.sinks ?? []).map((sink) => {
      const writer: SinkWriter = new SinkWriter(
        sink,
        maxPending,
        this.failClosed ? 0 : (sink.batchWindowMs ?? 0),
        {
          kept: (seq, count) => this.kept(writer, seq, count),
          failed: (seq, error) => this.failed(writer, seq, error),
          stalled: (error) => this.stalled(writer, error),
          dropped: (count) => this.metrics.dropped(sink.name, count),
          sealing: () => this.seal(),
        },
        // A call that waits for its record waits for no timer: with failClosed, the next
        // write starts as soon as the last ends (bench: throughput-http-audit).
        this.failClosed ? 0 : (sink.minWriteIntervalMs ?? 0),
        // A write no call could wait out takes the sink for failing.
        this.failClosed ? failClosedTimeoutMs : STALLED_AFTER_MS,
      );
      return writer;
    });
    this.keepers = this.writers.filter((writer) => writer.sink.keeps !== false);
    this.signer = options.signing && checkpointSigner(options.signing, clusterCheckpoints);
  }

  /**
   * Opens every sink (a sink that cannot open fails boot), then starts the checkpoint clock.
   * At bootstrap, not module init: an app's database (an SQL sink's) opens in a module's init.
   */
  async onApplicationBootstrap(): Promise<void> {
    await Promise.all(this.writers.map((writer) => writer.sink.open?.(this.instance)));
    this.seal();
    for (const writer of this.writers) writer.start();
    if (this.signer) {
      this.ticker = setInterval(
        () => this.sinceCheckpoint > 0 && this.checkpoint(),
        this.signer.everyMs,
      );
      this.ticker.unref();
    }
  }

  append(event: McpAuditEvent, wait: boolean): Promise<void> | undefined {
    const waits = wait && this.failClosed;
    if (this.closed) {
      // A call still running as the app closes: its record has no sink left to go to.
      for (const writer of this.writers) this.metrics.dropped(writer.sink.name, 1);
      if (!this.saidClosed) {
        this.saidClosed = true;
        this.logger.warn('audit: records made after the journal closed are not kept (counted)');
      }
      return waits ? Promise.reject(new Error('audit journal closed')) : undefined;
    }
    // Room is judged now, for the call that waits: the record joins the queues at the seal.
    const queued = !waits || this.keepers.every((writer) => writer.hasRoom(this.chain.unsealed));
    const seq = this.numbered(event);
    if (this.signer && ++this.sinceCheckpoint >= this.signer.everyRecords) this.checkpoint();
    if (!waits) return undefined;
    // A sink that is failing now, or that had no room, will not keep this record in time.
    if (!queued || this.keepers.some((writer) => !writer.healthy)) {
      return Promise.reject(new Error('an audit sink is unavailable'));
    }
    return this.waiters.wait(seq);
  }

  /**
   * The records numbered before the shutdown began kept, then the final checkpoint, then every
   * queue drained (5 s in all). Before the app's own shutdown hooks, which may close the database
   * an SQL sink writes to; the sinks close after them. Calls still running meanwhile keep their
   * records and are signed by the final checkpoint; what comes after it is dropped and counted.
   */
  beforeApplicationShutdown(): Promise<void> {
    this.shuttingDown ??= this.shutDown();
    return this.shuttingDown;
  }

  private async shutDown(): Promise<void> {
    clearInterval(this.ticker);
    const started = performance.now();
    const left = (budget: number) => Math.max(0, started + budget - performance.now());
    // What was numbered before the shutdown began, kept first: under load the queue need never
    // empty, and the checkpoint must not wait for it to.
    this.seal();
    const numbered = this.chain.size;
    await Promise.all(
      this.writers.map((writer) => writer.keptTo(numbered, left(DRAIN_BEFORE_CHECKPOINT_MS))),
    );
    if (this.signer && this.sinceCheckpoint > 0) this.checkpoint();
    this.closed = true;
    this.seal();
    await Promise.all(this.writers.map((writer) => writer.drain(left(DRAIN_AT_SHUTDOWN_MS))));
    for (const writer of this.writers) {
      if (writer.pending > 0) {
        this.logger.error(
          `audit: ${writer.pending} records not kept by ${writer.sink.name} at shutdown`,
        );
      }
    }
    this.waiters.refuse(Infinity, new Error('audit journal closed'));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.beforeApplicationShutdown();
    await Promise.all(this.writers.map((writer) => writer.sink.close?.()));
    await this.published;
    await this.signer?.publish?.close?.();
  }

  /**
   * Numbers the record; its line and digest wait for the seal at the end of this turn of the
   * loop, so the records of a turn are chained in one pass rather than each among its call's
   * own work (docs/audit.md, "Performance"). Past SEAL_AT records the seal runs at once, so the
   * wait is bounded.
   */
  private numbered(record: McpAuditEvent | McpAuditCheckpointRecord): number {
    const seq = this.chain.number(record);
    if (this.chain.unsealed >= SEAL_AT) this.seal();
    else if (this.chain.unsealed === 1) setImmediate(this.sealTurn);
    return seq;
  }

  /* At the end of the turn: a writer that can write starts now, not a turn later. */
  private readonly sealTurn = () => this.seal(true);

  /**
   * Places every numbered record in the chain, queues it for every sink and wakes the writers
   * (`now`: at once where they may write).
   */
  private seal(now = false): void {
    if (this.chain.unsealed === 0) return;
    for (const entry of this.chain.seal()) {
      this.recent.add(entry);
      for (const writer of this.writers) writer.enqueue(entry);
    }
    for (const writer of this.writers) writer.wake(now);
  }

  private checkpoint(): void {
    const signer = this.signer!;
    this.sinceCheckpoint = 0;
    // The note names the head: every record numbered so far is chained first.
    this.seal();
    const note = signCheckpoint(
      { origin: this.origin, size: this.chain.size, head: this.chain.head },
      signer.name,
      signer.key,
    );
    const seq = this.numbered({
      id: randomUUID(),
      kind: 'checkpoint',
      time: new Date().toISOString(),
      checkpoint: note,
    });
    this.lastCheckpoint = seq;
    // In order, one at a time; the shutdown waits for the last before closing the publisher.
    const checkpoint = { instance: this.instance, seq, note };
    if (signer.publish) {
      this.published = this.published
        .then(() => signer.publish!.publish(checkpoint))
        .catch((error: Error) =>
          this.logger.warn(`audit: a checkpoint was not published: ${error.message}`),
        );
    }
  }

  keepRecent(): void {
    // Records numbered before the reader asked stay out of its window.
    this.seal();
    this.recent.keep();
  }

  recentRecords(): readonly McpAuditEntry[] {
    this.seal();
    return this.recent.records();
  }

  chainState(): McpAuditChainState {
    const window = this.recentRecords();
    const [report] = verifyChains(
      window.map((entry) => ({ where: `record ${entry.seq}`, line: entry.line })),
      this.signer ? createPublicKey(this.signer.key) : undefined,
      [],
      true,
    );
    return {
      instance: this.instance,
      seq: this.chain.size,
      signed: this.signer !== undefined,
      lastCheckpoint: this.lastCheckpoint,
      sinks: this.writers.map((writer) => ({
        name: writer.sink.name,
        healthy: writer.healthy,
        pending: writer.pending,
        keptSeq: writer.keptSeq,
      })),
      recent: report ?? {
        instance: this.instance,
        records: 0,
        lastSeq: 0,
        checkpoints: 0,
        verifiedCheckpoints: 0,
        unsignedTail: 0,
        breaks: [],
      },
    };
  }

  private kept(writer: SinkWriter, seq: number, count: number): void {
    this.metrics.recordsKept(writer.sink.name, count);
    if (this.waiters.size === 0 || writer.sink.keeps === false) return;
    let keptByAll = seq;
    for (const keeper of this.keepers) keptByAll = Math.min(keptByAll, keeper.keptSeq);
    this.waiters.keptUpTo(keptByAll);
  }

  /* A write past its time: logged, and every call waiting on this sink refused (not counted: it may yet end). */
  private stalled(writer: SinkWriter, error: Error): void {
    this.logger.warn(`audit: ${writer.sink.name} is taken for failing: ${error.message}`);
    if (writer.sink.keeps === false) return;
    this.waiters.refuse(Infinity, new Error(`audit sink ${writer.sink.name}: ${error.message}`));
  }

  private failed(writer: SinkWriter, seq: number, error: Error): void {
    const sink = writer.sink.name;
    this.metrics.writeFailed(sink);
    this.logger.warn(`audit: ${sink} failed to write (retrying): ${error.message}`);
    if (writer.sink.keeps === false) return;
    this.waiters.refuse(seq, new Error(`audit sink ${sink} failed: ${error.message}`));
  }
}
