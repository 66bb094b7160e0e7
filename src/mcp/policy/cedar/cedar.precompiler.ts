import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { moduleRequire } from '../../definitions/schema/optional-libraries.js';

/*
 * Cedar's engine is 4 MB of WebAssembly. V8 compiles it lazily, one function at a time on the
 * thread that first calls it, so a cold boot paid about 150 ms of compiling on the main thread
 * inside its first validation. Compiled eagerly on another thread instead, while the app's own
 * modules load and Nest builds its graph, the engine is ready when the policy layer asks for it:
 * V8 keeps one compiled module per process for the same bytes, so the main thread's
 * `new WebAssembly.Module` (in `@cedar-policy/cedar-wasm/nodejs`) finds the worker's code.
 * The worker hands its module back, which keeps that compiled code alive until then.
 * docs/policy.md, "Cold start".
 */

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const v8 = require('node:v8');
const bytes = require('node:fs').readFileSync(workerData.wasm);
v8.setFlagsFromString('--no-wasm-lazy-compilation');
let module;
try {
  module = new WebAssembly.Module(bytes);
} finally {
  if (workerData.restoreLazy) v8.setFlagsFromString('--wasm-lazy-compilation');
}
parentPort.postMessage(module);
`;

let precompiled: Promise<object | undefined> | undefined;

/**
 * Starts compiling Cedar's WebAssembly on a worker thread, once per process. Called when the
 * app declares a Cedar policy (`McpPolicies.cedar()`), which is before Nest boots. Anything
 * that goes wrong here only loses the head start: the engine then compiles as it loads. The
 * promise (which nothing needs to await) holds the compiled module, and so V8 keeps its code.
 */
export function precompileCedar(): Promise<object | undefined> {
  precompiled ??= new Promise((resolve) => {
    try {
      const wasm = join(
        dirname(moduleRequire().resolve('@cedar-policy/cedar-wasm/nodejs')),
        'cedar_wasm_bg.wasm',
      );
      const worker = new Worker(WORKER, {
        eval: true,
        // The script is CommonJS whatever the process was started with (`--input-type`).
        execArgv: [],
        workerData: { wasm, restoreLazy: !eagerByChoice() },
      });
      worker.once('message', resolve);
      worker.once('error', () => resolve(undefined));
      worker.once('exit', () => resolve(undefined));
      worker.unref();
    } catch {
      // No worker threads, or Cedar not resolvable from here: the loader reports the latter.
      resolve(undefined);
    }
  });
  return precompiled;
}

/** The lazy-compilation flag is the process's: an app that asked for eager keeps it. */
function eagerByChoice(): boolean {
  const flag = '--no-wasm-lazy-compilation';
  return process.execArgv.includes(flag) || (process.env.NODE_OPTIONS ?? '').includes(flag);
}
