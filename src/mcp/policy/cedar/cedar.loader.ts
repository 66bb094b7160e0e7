import { readFileSync } from 'node:fs';
import { cedarWasmPath, precompileCedar, type CompiledCedar } from './cedar.precompiler.js';
import { underCedarBudget } from './tiering-budget.js';

/** The Cedar engine's functions, as `@cedar-policy/cedar-wasm/nodejs` exports them. */
export type CedarWasm = typeof import('@cedar-policy/cedar-wasm/nodejs');

/*
 * Cedar's `web` entry is given its module (`initSync({ module })`), so it takes the one
 * `precompileCedar()` compiled while the app booted. That entry is an ES module only: the
 * package's CommonJS build (scripts/commonjs) loads the `nodejs` entry in its place, which reads
 * and compiles the module itself when required, and has no `initSync`.
 */
type CedarEntry = CedarWasm & {
  initSync?: (init: { module: CompiledCedar | Uint8Array }) => unknown;
};

let loading: Promise<CedarWasm> | undefined;

/* Whether this is the ES module build (which loads the `web` entry) or the CommonJS one. */
declare const require: unknown;
const USES_WEB_ENTRY = typeof require !== 'function';

/*
 * The worker's module arrives in the realm its messages are read in. Where that is not the
 * loader's (Jest runs each test file in a context of its own), the entry's `instanceof` check
 * refuses it: the loader compiles the bytes again there, and V8 finds the compiled code.
 */
const ofThisRealm = (module: CompiledCedar): boolean =>
  module instanceof
  (globalThis as unknown as { WebAssembly: { Module: typeof Object } }).WebAssembly.Module;

/**
 * Loads Cedar once, and only when a `policy` option asks for it: a server without one never
 * pays for compiling the WebAssembly module (test/policy/cedar-cold-load.e2e-spec.ts pins it).
 */
export function loadCedar(): Promise<CedarWasm> {
  loading ??= (async () => {
    const module = await precompileCedar();
    // The CommonJS build's `nodejs` entry compiles as it is required: under Cedar's budget.
    const entry = import('@cedar-policy/cedar-wasm/web') as unknown as Promise<CedarEntry>;
    const cedar = USES_WEB_ENTRY ? await entry : await underCedarBudget(() => entry);
    if (typeof cedar.initSync === 'function') {
      const init = cedar.initSync;
      if (module && ofThisRealm(module)) init({ module });
      // Without the worker's module, the bytes compile here: under Cedar's budget too.
      else await underCedarBudget(() => init({ module: readFileSync(cedarWasmPath()) }));
    }
    return cedar;
  })();
  return loading;
}
