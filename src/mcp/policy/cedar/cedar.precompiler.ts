import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { moduleRequire } from '../../definitions/schema/optional-libraries.js';
import { CEDAR_COMPILE_WORKER } from './cedar-compile.worker.js';
import { CEDAR_TIERING_BUDGET, processTieringBudget } from './tiering-budget.js';
import { keepsVerdicts } from './validation.cache.js';

/*
 * Cedar's engine is 4 MB of WebAssembly. Read and compiled when the policy layer first needs
 * it, it cost the end of Nest's boot the read, V8's validation of the module and the compiling
 * of every function a boot calls. `McpPolicies.cedar()` runs when the app's module is imported,
 * before Nest boots, and starts a worker that does all of that meanwhile
 * (cedar-compile.worker.ts); the loader then instantiates the worker's module.
 *
 * One head start per process, kept under a registered symbol rather than in this module: a
 * bundle's launcher starts it from its own copy of this file (`mcp-warden bundle
 * --preload-cedar`) before the bundle, with the app's copy inside it, is even read.
 */
const PRECOMPILED = Symbol.for('mcp-warden.cedar.precompiled');
type Holder = { [PRECOMPILED]?: Promise<CompiledCedar | undefined> };

/** Cedar's compiled `WebAssembly.Module`, which the package's type libraries do not declare. */
export type CompiledCedar = object;

/** Cedar's `nodejs` entry; the package's other entries sit beside it. */
const nodejsEntry = () => moduleRequire().resolve('@cedar-policy/cedar-wasm/nodejs');

/** Cedar's WebAssembly file, the same bytes for each of the package's entries. */
export function cedarWasmPath(): string {
  return join(dirname(nodejsEntry()), 'cedar_wasm_bg.wasm');
}

/**
 * Starts compiling Cedar's WebAssembly, once per process. Anything that goes wrong here only
 * loses the head start (the promise then holds `undefined`): the loader compiles the module
 * itself, and reports what is wrong. Once it has handed the module back, the worker (still
 * warming up) no longer holds the process open.
 */
export function precompileCedar(): Promise<CompiledCedar | undefined> {
  return ((globalThis as Holder)[PRECOMPILED] ??= new Promise((resolve) => {
    try {
      // A boot that finds its verdict kept does not validate: warming the validator would only
      // take a core from the app's own boot (validation.cache.ts).
      const worker = startCompileWorker(!keepsVerdicts());
      worker.once('message', (module: CompiledCedar) => {
        // Until now a loader may be waiting for it with nothing else holding the process open.
        worker.unref();
        resolve(module);
      });
      worker.once('error', () => resolve(undefined));
      worker.once('exit', () => resolve(undefined));
    } catch {
      // No worker threads, or Cedar not resolvable from here: the loader reports the latter.
      resolve(undefined);
    }
  }));
}

/**
 * The compiling worker (cedar-compile.worker.ts), its validator warmed or not: it posts the
 * compiled module, then the warm-up's own decision.
 * @internal Exported for its spec.
 */
export function startCompileWorker(validate: boolean): Worker {
  return new Worker(CEDAR_COMPILE_WORKER, {
    eval: true,
    // The script is CommonJS whatever the process was started with (`--input-type`).
    execArgv: [],
    // Its output is not the app's: over stdio, stdout is the protocol.
    stdout: true,
    stderr: true,
    workerData: {
      wasm: cedarWasmPath(),
      // The `web` entry takes a compiled module (an ES module, beside `nodejs`).
      entry: pathToFileURL(join(dirname(nodejsEntry()), '..', 'web', 'cedar_wasm.js')).href,
      budget: CEDAR_TIERING_BUDGET,
      restore: processTieringBudget(),
      validate,
    },
  });
}
