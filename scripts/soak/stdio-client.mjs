// @ts-check
import { spawn } from 'node:child_process';
import process from 'node:process';
import { createInterface } from 'node:readline';
import { Client } from './client.mjs';
import { STDIO_APP } from './apps.mjs';
import { figures, problem } from './figures.mjs';

/** @typedef {import('./client.mjs').Msg} Msg */

/** The stdio app, spawned; one client connection per process. */
export class StdioClient extends Client {
  /**
   * @param {string} token
   * @param {number} maxCalls
   * @param {Record<string, string>} appEnv the fixture app's environment
   */
  constructor(token, maxCalls, appEnv) {
    super('stdio', token, maxCalls);
    this.appEnv = appEnv;
    /** @type {Map<unknown, { responses: Msg[], resolve: (responses: Msg[]) => void }>} */
    this.pending = new Map();
    /** @type {import('node:child_process').ChildProcessWithoutNullStreams | undefined} */
    this.child = undefined;
    /** @type {Promise<{ code: number | null, signal: NodeJS.Signals | null }> | undefined} */
    this.exited = undefined;
  }

  async open() {
    const child = spawn(process.execPath, [STDIO_APP], {
      env: { ...process.env, ...this.appEnv, NODE_OPTIONS: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    child.stderr.resume();
    child.stdin.on('error', () => undefined);
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => {
      /** @type {Msg} */
      let m;
      try {
        m = JSON.parse(line);
      } catch {
        return problem('wrong', `stdio line is not JSON: ${line.slice(0, 200)}`);
      }
      if (m.method !== undefined && m.id !== undefined) {
        const answer = this.answerTo(m);
        if (answer) {
          this.write(answer);
          this.acknowledge(answer);
        }
      } else if (m.method === undefined) {
        const entry = this.pending.get(m.id);
        if (!entry) return problem('duplicated', `stdio response ${m.id} with no request pending`);
        entry.responses.push(m);
        // Exactly once: a second response to the same id is seen as "no request pending".
        this.pending.delete(m.id);
        entry.resolve(entry.responses);
      } else if (m.method !== 'notifications/cancelled') {
        this.onNotification(m);
      }
    });
    const [init] = await this.send(
      this.call('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: {} },
        clientInfo: { name: 'soak', version: '1.0.0' },
      }),
    );
    if (!init?.result) throw new Error(`stdio initialize: ${JSON.stringify(init)}`);
    this.write({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await this.send(this.call('resources/subscribe', { uri: this.uri }));
    figures.stdioSessions++;
  }

  /** @param {Msg} message */
  write(message) {
    this.#child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /**
   * Writes a request; the stdout reader settles it when its response arrives.
   * @override
   * @param {Msg} message
   * @returns {Promise<Msg[]>}
   */
  send(message) {
    return new Promise((resolve) => {
      this.pending.set(message.id, { responses: [], resolve });
      this.write(message);
    });
  }

  /** The app's own counts, then stdin closed: it must drain and exit 0. */
  async close() {
    const [stats] = await this.send(this.call('tools/call', { name: 'soak_stats', arguments: {} }));
    const counts = stats?.result?.structuredContent;
    // The stats call itself is the one request in flight.
    if (
      !counts ||
      counts.inflight !== 1 ||
      counts.pendingServerRequests !== 0 ||
      counts.connections !== 1
    ) {
      problem('wrong', `stdio counts before close: ${JSON.stringify(counts)}`);
    }
    this.#child.stdin.end();
    const exit = await this.exited;
    if (!exit) throw new Error('stdio client closed before it was opened');
    if (exit.code !== 0) {
      figures.stdioExitFailures++;
      problem('wrong', `stdio app exited ${exit.code ?? exit.signal}`);
    }
  }

  /** The spawned app (open() first). */
  get #child() {
    if (!this.child) throw new Error('stdio client used before open()');
    return this.child;
  }
}
