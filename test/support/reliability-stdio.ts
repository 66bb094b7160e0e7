import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { StreamText } from './stdio-child.js';

type Message = Record<string, any>;

/**
 * A stdio MCP server script spawned over raw pipes (a fixture of the
 * reliability suites). Every stdout line is kept; waiters resolve as matching
 * messages arrive (event-driven, no polling).
 */
export class StdioScript {
  readonly process: ChildProcessWithoutNullStreams;
  readonly stderr: StreamText;
  readonly lines: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private nextId = 1;
  private waiters: { test: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];

  constructor(script: string, env: Record<string, string> = {}) {
    this.process = spawn(process.execPath, [script], {
      env: { ...process.env, NODE_OPTIONS: '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.exited = new Promise((resolveExit) =>
      this.process.once('exit', (code, signal) => resolveExit({ code, signal })),
    );
    this.stderr = new StreamText(this.process.stderr);
    this.process.stdin.on('error', () => undefined);
    createInterface({ input: this.process.stdout, crlfDelay: Infinity }).on('line', (line) => {
      this.lines.push(line);
      let message: Message;
      try {
        message = JSON.parse(line) as Message;
      } catch {
        return;
      }
      this.waiters = this.waiters.filter((w) =>
        w.test(message) ? (w.resolve(message), false) : true,
      );
    });
  }

  /** Every stdout line parsed (a line that is not JSON fails the parse, on purpose). */
  messages(): Message[] {
    return this.lines.map((line) => JSON.parse(line) as Message);
  }

  send(message: object): void {
    this.process.stdin.write(JSON.stringify(message) + '\n');
  }

  /** The first message (already received or still to come) that satisfies `test`. */
  waitFor(test: (m: Message) => boolean): Promise<Message> {
    for (const line of this.lines) {
      try {
        const message = JSON.parse(line) as Message;
        if (test(message)) return Promise.resolve(message);
      } catch {
        // not JSON
      }
    }
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  /** Sends a request with a fresh id; resolves to its response. */
  request(method: string, params?: object): Promise<Message> {
    const id = this.nextId++;
    const response = this.waitFor((m) => m.id === id && m.method === undefined);
    this.send(
      params === undefined
        ? { jsonrpc: '2.0', id, method }
        : { jsonrpc: '2.0', id, method, params },
    );
    return response;
  }

  async initialize(capabilities: object = {}): Promise<Message> {
    const response = await this.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities,
      clientInfo: { name: 'reliability', version: '1.0.0' },
    });
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return response;
  }

  get running(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }

  async dispose(): Promise<void> {
    if (this.running) this.process.kill('SIGKILL');
    await this.exited;
  }
}
