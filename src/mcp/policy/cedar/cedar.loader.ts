/** The Cedar engine's functions, as `@cedar-policy/cedar-wasm/nodejs` exports them. */
export type CedarWasm = typeof import('@cedar-policy/cedar-wasm/nodejs');

let loading: Promise<CedarWasm> | undefined;

/**
 * Loads Cedar once, and only when a `policy` option asks for it: a server without one never
 * pays for compiling the WebAssembly module (test/policy/cold-load.e2e-spec.ts pins it).
 */
export function loadCedar(): Promise<CedarWasm> {
  loading ??= import('@cedar-policy/cedar-wasm/nodejs').then(
    (module) => ((module as { default?: CedarWasm }).default ?? module) as CedarWasm,
  );
  return loading;
}
