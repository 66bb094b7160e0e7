import { Worker } from 'node:worker_threads';
import type { McpAuditEntry, McpAuditSink } from '../audit-sink.interface.js';
import { moduleRequire } from '../../definitions/schema/optional-libraries.js';
import { auditTableName } from './sql-table.sink.js';
import { lineChunks } from './line-chunks.js';
import { SQLITE_WRITER_WORKER } from './sqlite-writer.worker.js';

/** `McpAuditSinks.sqlite()` options. @publicApi */
export interface McpSqliteSinkOptions {
  /** The SQLite database file: the app's own (WAL lets both connections work) or one of its own. */
  file: string;
  /**
   * The SQLite library the thread opens `file` with. When `file` is the app's own database, it
   * must be the one the app opens it with: SQLite's file locks belong to the process, so two
   * copies of SQLite in one process do not see each other's locks, and writes are lost. Default:
   * `node:sqlite` where Node's has `StatementSync.columns()` (22.16 and later), else
   * `better-sqlite3`, as the package resolves it.
   */
  driver?: 'node:sqlite' | 'better-sqlite3';
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

/** One writer thread, and the batches it has yet to answer. */
interface Thread {
  readonly worker: Worker;
  readonly replies: Map<number, (reply: Reply) => void>;
  stopped: boolean;
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
  private thread?: Promise<Thread>;
  private nextId = 0;
  /** Waits on a thread under way (its start, batches, its close). */
  private waiting = 0;
  private closed = false;

  constructor(private readonly options: McpSqliteSinkOptions) {
    this.table = auditTableName(options.table);
    this.minWriteIntervalMs = options.minWriteIntervalMs ?? 50;
  }

  /* The thread, started; a file it cannot open or a table it cannot create fails boot. */
  async open(): Promise<void> {
    await this.started();
  }

  async write(entries: readonly McpAuditEntry[]): Promise<void> {
    // A drain that gave up may still hand over a batch after the close: no new thread for it.
    if (this.closed) throw new Error('SQLite audit sink: closed');
    const thread = await this.started();
    // The thread stopped since it was handed out: its batch fails now (and is retried).
    if (thread.stopped) throw new Error('SQLite audit sink: its thread stopped');
    // The lines the chain hashed, in strings of at most 32 KiB (line-chunks.ts): the thread
    // reads each row's columns back from its line. Copying strings to the thread cost a tenth of
    // an array of every column.
    const chunks = lineChunks(entries);
    const id = ++this.nextId;
    const reply = new Promise<Reply>((resolve) => thread.replies.set(id, resolve));
    thread.worker.postMessage({ id, chunks });
    const { error } = await this.holding(thread.worker, reply);
    if (error !== undefined) throw new Error(`SQLite audit sink: ${error}`);
  }

  async close(): Promise<void> {
    this.closed = true;
    const starting = this.thread;
    this.thread = undefined;
    const thread = await starting?.catch(() => undefined);
    if (!thread || thread.stopped) return;
    const exited = new Promise((resolve) => thread.worker.once('exit', resolve));
    thread.worker.postMessage({ close: true });
    await this.holding(thread.worker, exited);
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

  private started(): Promise<Thread> {
    this.thread ??= this.start().catch((error: Error) => {
      this.thread = undefined;
      throw error;
    });
    return this.thread;
  }

  private start(): Promise<Thread> {
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
        driver: this.options.driver,
        betterSqlite: betterSqlitePath(),
      },
    });
    const thread: Thread = { worker, replies: new Map(), stopped: false };
    const settle = (reply: Reply) => {
      thread.replies.get(reply.id!)?.(reply);
      thread.replies.delete(reply.id!);
    };
    return this.holding(
      worker,
      new Promise((resolve, reject) => {
        worker.on('message', (reply: Reply) => {
          if (reply.ready === true) resolve(thread);
          else if (reply.ready === false) {
            reject(new Error(`SQLite audit sink cannot open ${this.options.file}: ${reply.error}`));
          } else settle(reply);
        });
        const stopped = (why: string) => {
          reject(new Error(`SQLite audit sink: its thread ${why}`));
          // This thread's batches fail and are retried, on a new thread.
          thread.stopped = true;
          void this.thread?.then(
            (current) => {
              if (current === thread) this.thread = undefined;
            },
            () => undefined,
          );
          for (const id of [...thread.replies.keys()]) settle({ id, error: `its thread ${why}` });
        };
        worker.once('error', (error) => stopped(`failed: ${error.message}`));
        worker.once('exit', (code) => stopped(`exited (${code})`));
      }),
    );
  }
}

/*
 * Where the thread opens the file with better-sqlite3: the copy this package resolves, which is
 * the app's in an app that installed it (the notes store imports it from the same place).
 * Undefined when there is none; the thread then says what to install.
 */
function betterSqlitePath(): string | undefined {
  try {
    return moduleRequire().resolve('better-sqlite3');
  } catch {
    return undefined;
  }
}
