import type * as OidcProvider from 'oidc-provider';

let loading: Promise<typeof OidcProvider> | undefined;

/**
 * Imports `oidc-provider` once. The package warns at import time on a Node.js release line it
 * does not list as supported (Node 20 here); that one line is dropped so test output stays clean.
 * Every other warning still gets through.
 */
export function loadOidcProvider(): Promise<typeof OidcProvider> {
  loading ??= (async () => {
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      if (typeof args[0] === 'string' && args[0].includes('WARNING: Unsupported runtime')) return;
      warn.apply(console, args);
    };
    try {
      return await import('oidc-provider');
    } finally {
      console.warn = warn;
    }
  })();
  return loading;
}
