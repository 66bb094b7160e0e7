import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { StreamText } from './stdio-child.js';

/** The notes service's HTTP entry as it ships for a fast start (see MAIN_STDIO). */
export const MAIN_HTTP = resolve(process.cwd(), 'dist/bundle/main.mjs');
/** The same entry as tsc built it (test/operations/bundled-service.e2e-spec.ts compares the two). */
export const AS_BUILT_HTTP = resolve(process.cwd(), 'dist/app/main.js');

const BANNER = /MCP Warden notes service: (http:\/\/\S+\/mcp)\n/;

/**
 * The notes service spawned with `PORT=0`; `url` resolves to the MCP endpoint
 * it announces on stderr once it listens.
 */
export class HttpServiceChild {
  readonly process: ChildProcess;
  readonly stdout: StreamText;
  readonly stderr: StreamText;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly url: Promise<string>;

  /** `entry`: the bundled entry point by default, or another (tsc's). */
  constructor(dataDir: string, env: Record<string, string> = {}, entry: string = MAIN_HTTP) {
    this.process = spawn(process.execPath, [entry], {
      env: { ...process.env, NODE_OPTIONS: '', PORT: '0', DATA_DIR: dataDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.exited = new Promise((resolveExit) =>
      this.process.once('exit', (code, signal) => resolveExit({ code, signal })),
    );
    // The service writes nothing on stdout; read it anyway, so a test can say so.
    this.stdout = new StreamText(this.process.stdout!);
    this.stderr = new StreamText(this.process.stderr!);
    this.url = Promise.race([
      this.stderr
        .waitFor((text) => BANNER.test(text))
        .then(() => BANNER.exec(this.stderr.text)![1]),
      this.exited.then(({ code, signal }) => {
        throw new Error(`service exited (${code ?? signal}) before listening: ${this.stderr.text}`);
      }),
    ]);
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
