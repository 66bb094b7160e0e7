import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { McpAuditEntry, McpAuditSink } from '../audit-sink.interface.js';
import { moduleRequire } from '../../definitions/schema/optional-libraries.js';
import { auditTableName } from './sql-table.sink.js';
import { SQLITE_WRITER_WORKER } from './sqlite-writer.worker.js';

/** `McpAuditSinks.sqlite()` options. @publicApi */
export interface McpSqliteSinkOptions {
  /** The SQLite database file: the app's own (WAL lets both connections work) or one of its own. */
  file: string;
  /** Default `mcp_audit_records`, the `sql` sink's table: `audit verify sqlite:<file>` reads it. */
  table?: string;
  /** How long a batch waits for another connection's write lock before it fails (ms). Default 5,000. */
  busyTimeoutMs?: number;
  /**
   * Without `failClosed`, the shortest time between two writes, each one commit and fsync.
   * Default 50 ms, as the `sql` sink's window: a commit costs the thread more than a file's
   * flush, and a record waits at most this long when no call waits for it.
   */
  minWriteIntervalMs?: number;
}

interface Reply {
  readonly id?: number;
  readonly ready?: boolean;
  readonly error?: string;
}

/**
 * A SQLite table kept by a thread of its own (sqlite-writer.worker.ts): SQLite's drivers are
 * synchronous, so on the main thread every commit and its fsync would hold the event loop. The
 * rows are the `sql` sink's, in its table; a batch is one transaction. Should the thread stop,
 * the batches in flight fail (the journal retries them) and the next write starts a new one.
 */
export class SqliteWorkerSink implements McpAuditSink {
  readonly name = 'sqlite';
  readonly minWriteIntervalMs: number;
  private readonly table: string;
  private worker?: Promise<Worker>;
  /** The thread once it is ready, until it stops. */
  private live?: Worker;
  private readonly replies = new Map<number, (reply: Reply) => void>();
  private nextId = 0;
  /** Waits on the thread under way (its start, batches, its close). */
  private waiting = 0;

  constructor(private readonly options: McpSqliteSinkOptions) {
    this.table = auditTableName(options.table);
    this.minWriteIntervalMs = options.minWriteIntervalMs ?? 50;
  }

  /* The thread, started; a file it cannot open or a table it cannot create fails boot. */
  async open(): Promise<void> {
    await this.started();
  }

  async write(entries: readonly McpAuditEntry[]): Promise<void> {
    const worker = await this.started();
    // One string, the lines the chain hashed: the thread reads each row's columns back from its
    // line. Copying one flat string to the thread cost a tenth of an array of every column.
    const lines = entries.map((entry) => entry.line).join('\n');
    // The thread stopped since it was handed out: its batch fails now (and is retried).
    if (this.live !== worker) throw new Error('SQLite audit sink: its thread stopped');
    const id = ++this.nextId;
    const reply = new Promise<Reply>((resolve) => this.replies.set(id, resolve));
    worker.postMessage({ id, lines });
    const { error } = await this.holding(worker, reply);
    if (error !== undefined) throw new Error(`SQLite audit sink: ${error}`);
  }

  async close(): Promise<void> {
    const starting = this.worker;
    this.worker = this.live = undefined;
    const worker = await starting?.catch(() => undefined);
    if (!worker) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage({ close: true });
    await this.holding(worker, exited);
  }

  /*
   * The thread holds the process open only while the app waits on it (its start, a batch, its
   * close): an app whose loop has nothing else left, as one that failed to listen and closes,
   * would otherwise exit in the middle of the wait, with code 0. Idle, it holds nothing open.
   */
  private async holding<T>(worker: Worker, wait: Promise<T>): Promise<T> {
    this.waiting += 1;
    worker.ref();
    try {
      return await wait;
    } finally {
      if (--this.waiting === 0) worker.unref();
    }
  }

  private started(): Promise<Worker> {
    this.worker ??= this.start().catch((error: Error) => {
      this.worker = undefined;
      throw error;
    });
    return this.worker;
  }

  private start(): Promise<Worker> {
    const worker = new Worker(SQLITE_WRITER_WORKER, {
      eval: true,
      // The script is CommonJS whatever the process was started with (`--input-type`).
      execArgv: [],
      // Its output is not the app's: over stdio, stdout is the protocol.
      stdout: true,
      workerData: {
        file: this.options.file,
        table: this.table,
        busyTimeoutMs: this.options.busyTimeoutMs ?? 5_000,
        betterSqlite: betterSqlitePath(),
      },
    });
    return this.holding(
      worker,
      new Promise((resolve, reject) => {
        worker.on('message', (reply: Reply) => {
          if (reply.ready === true) {
            this.live = worker;
            resolve(worker);
          } else if (reply.ready === false) {
            reject(new Error(`SQLite audit sink cannot open ${this.options.file}: ${reply.error}`));
          } else this.settle(reply);
        });
        const stopped = (why: string) => {
          reject(new Error(`SQLite audit sink: its thread ${why}`));
          // Batches in flight fail and are retried, on a new thread.
          if (this.live === worker) this.live = this.worker = undefined;
          for (const id of [...this.replies.keys()])
            this.settle({ id, error: `its thread ${why}` });
        };
        worker.once('error', (error) => stopped(`failed: ${error.message}`));
        worker.once('exit', (code) => stopped(`exited (${code})`));
      }),
    );
  }

  private settle(reply: Reply): void {
    const resolve = this.replies.get(reply.id!);
    this.replies.delete(reply.id!);
    resolve?.(reply);
  }
}

/*
 * Where Node has no node:sqlite (20), the thread loads better-sqlite3: the app's, or the one
 * this package resolves. Undefined when neither has it; the thread then says what to install.
 */
function betterSqlitePath(): string | undefined {
  for (const resolver of [
    () => createRequire(join(process.cwd(), 'package.json')),
    () => moduleRequire(),
  ]) {
    try {
      return resolver().resolve('better-sqlite3');
    } catch {
      // Next place.
    }
  }
  return undefined;
}
