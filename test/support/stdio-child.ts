import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/**
 * The notes service's stdio entry as it ships for a fast start (`dist/bundle/`, built by
 * `npm run build`): what the suites spawn, since each spawn then costs a third of the time.
 */
export const MAIN_STDIO = resolve(process.cwd(), 'dist/bundle/main-stdio.mjs');
/** The same entry as tsc built it, one module per file (test/operations/bundled-service.e2e-spec.ts compares the two). */
export const AS_BUILT_STDIO = resolve(process.cwd(), 'dist/app/main-stdio.js');

/** The `initialize` params every raw client in these suites sends. */
export const INITIALIZE_PARAMS = {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'jest-stdio', version: '1.0.0' },
};

/** A fresh, empty data directory under the OS temp dir. */
export function makeDataDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'mcp-warden-stdio-'));
}

export async function removeDataDir(dir: string | undefined): Promise<void> {
  if (dir) await rm(dir, { recursive: true, force: true });
}

/**
 * Accumulates a text stream and resolves waiters as soon as the text seen so
 * far satisfies their predicate (event-driven: no polling, no sleeps).
 */
export class StreamText {
  private buffer = '';
  private ended = false;
  private waiters: { test: (text: string) => boolean; resolve: () => void }[] = [];
  private endWaiters: (() => void)[] = [];

  constructor(stream: Readable) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      this.buffer += chunk;
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.test(this.buffer)) return true;
        waiter.resolve();
        return false;
      });
    });
    stream.once('end', () => {
      this.ended = true;
      for (const resolveEnd of this.endWaiters) resolveEnd();
    });
  }

  get text(): string {
    return this.buffer;
  }

  /** Lines that are JSON objects with an `audit` key, parsed. */
  auditEvents(): Record<string, unknown>[] {
    return this.buffer
      .split('\n')
      .filter((line) => line.startsWith('{"audit":'))
      .map((line) => (JSON.parse(line) as { audit: Record<string, unknown> }).audit);
  }

  /** Resolves once the accumulated text satisfies `test`. */
  waitFor(test: (text: string) => boolean): Promise<void> {
    if (test(this.buffer)) return Promise.resolve();
    return new Promise((resolveWait) => this.waiters.push({ test, resolve: resolveWait }));
  }

  /** Resolves once some audit event matches every field of `expected`. */
  waitForAudit(expected: Record<string, unknown>): Promise<void> {
    const matches = (event: Record<string, unknown>) =>
      Object.entries(expected).every(([key, value]) => event[key] === value);
    return this.waitFor(() => this.auditEvents().some(matches));
  }

  /** Resolves once the stream has ended. */
  untilEnd(): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((resolveEnd) => this.endWaiters.push(resolveEnd));
  }
}

type Message = Record<string, any>;

/**
 * A stdio MCP server script spawned over raw pipes. Every stdout line is kept
 * as received; messages are parsed as they arrive and handed to waiters
 * (event-driven, no polling).
 */
export class StdioScript {
  readonly process: ChildProcessWithoutNullStreams;
  readonly stderr: StreamText;
  /** Every stdout line, raw, in arrival order. */
  readonly lines: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once stdout has closed and every line of it has been read. */
  readonly stdoutClosed: Promise<void>;
  private nextId = 1;
  private waiters: {
    index: number;
    test: (m: Message) => boolean;
    resolve: (m: Message) => void;
  }[] = [];

  /**
   * `launch`: a script, run on this Node with this process's environment and `env` on top; or a
   * whole command line (a documented launch command such as `npm run --silent start:stdio`),
   * run as a client runs it, with exactly `env`.
   */
  constructor(
    launch: string | readonly [string, ...string[]],
    env: Record<string, string> = {},
    options: { cwd?: string } = {},
  ) {
    const command = typeof launch !== 'string';
    const [file, ...args] = command ? launch : [process.execPath, launch];
    this.process = spawn(file, args, {
      cwd: options.cwd,
      env: command ? env : { ...process.env, NODE_OPTIONS: '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.exited = new Promise((resolveExit) =>
      this.process.once('exit', (code, signal) => resolveExit({ code, signal })),
    );
    this.stderr = new StreamText(this.process.stderr);
    // A child that dies early must not surface as an unhandled EPIPE.
    this.process.stdin.on('error', () => undefined);
    const lines = createInterface({ input: this.process.stdout, crlfDelay: Infinity });
    this.stdoutClosed = new Promise((resolveClose) => lines.once('close', () => resolveClose()));
    lines.on('line', (line) => {
      this.lines.push(line);
      const index = this.lines.length - 1;
      let message: Message | undefined;
      try {
        message = JSON.parse(line) as Message;
      } catch {
        return; // Left in `lines` for the suite to flag.
      }
      this.waiters = this.waiters.filter((waiter) => {
        if (index < waiter.index || !waiter.test(message!)) return true;
        waiter.resolve(message!);
        return false;
      });
    });
  }

  /** Every stdout line parsed (a line that is not JSON fails the parse, on purpose). */
  messages(): Message[] {
    return this.lines.map((line) => JSON.parse(line) as Message);
  }

  /** Writes raw bytes (or text) to the child's stdin. */
  write(data: string | Buffer): void {
    this.process.stdin.write(data);
  }

  /** Writes one message as a newline-terminated JSON line. */
  send(message: object): void {
    this.write(JSON.stringify(message) + '\n');
  }

  /** Sends a request with a fresh numeric id and resolves to its response. */
  request(method: string, params?: object): Promise<Message> {
    const id = this.nextId++;
    const message: Message = { jsonrpc: '2.0', id, method };
    if (params !== undefined) message.params = params;
    const response = this.waitFor((m) => m.id === id && !('method' in m));
    this.send(message);
    return response;
  }

  /**
   * `pending`, unless the child exits first: then a rejection with its last stderr lines, at once
   * rather than at the suite's timeout (a request to a dead child is never answered).
   */
  whileRunning<T>(pending: Promise<T>): Promise<T> {
    const died = this.exited.then(() => {
      throw new Error(`the child exited: ${this.stderr.text.slice(-600)}`);
    });
    return Promise.race([pending, died]);
  }

  /** Sends `initialize` and `notifications/initialized`; resolves to the initialize response. */
  async initialize(capabilities: object = {}): Promise<Message> {
    const response = await this.request('initialize', { ...INITIALIZE_PARAMS, capabilities });
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return response;
  }

  /**
   * Resolves to the first stdout message matching `test` at line index
   * `fromLine` or later (default: any line, including ones already received).
   */
  waitFor(test: (message: Message) => boolean, fromLine = 0): Promise<Message> {
    for (let index = fromLine; index < this.lines.length; index++) {
      try {
        const message = JSON.parse(this.lines[index]) as Message;
        if (test(message)) return Promise.resolve(message);
      } catch {
        // not JSON; skip
      }
    }
    return new Promise((resolveWait) =>
      this.waiters.push({ index: fromLine, test, resolve: resolveWait }),
    );
  }

  /** Resolves to the parsed stdout line at `index`, once it has arrived. */
  lineAt(index: number): Promise<Message> {
    if (index < this.lines.length) return Promise.resolve(JSON.parse(this.lines[index]) as Message);
    // Lines arrive in order, so the first JSON line at or after `index` is that line.
    return new Promise((resolveLine) =>
      this.waiters.push({ index, test: () => true, resolve: resolveLine }),
    );
  }

  get running(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }

  /** Kills the child if it still runs and waits for it to be gone. */
  async dispose(): Promise<void> {
    if (this.running) this.process.kill('SIGKILL');
    await this.exited;
  }
}

/** The notes service (the built stdio entry point) spawned over raw pipes on `dataDir`. */
export class StdioChild extends StdioScript {
  constructor(dataDir: string) {
    super(MAIN_STDIO, { DATA_DIR: dataDir });
  }
}
