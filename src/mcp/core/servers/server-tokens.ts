/**
 * The DI token of something one named server provides. Each server module
 * exports its warden, registry and options under these besides their class
 * tokens, so an app with several servers injects the one it means.
 */
export function namedServerToken(kind: string, name: string): string {
  return `McpWarden:server:${name}:${kind}`;
}

/** The token of a named server's resolved options (the testing client and stdio read them). */
export function getMcpOptionsToken(name: string): string {
  return namedServerToken('options', name);
}

/**
 * The token under which a server named `name` exports a string or symbol token of its
 * module's exports (the operator desk, the approval store, the options).
 */
export function serverTokenOf(token: string | symbol, name: string): string {
  const kind = typeof token === 'symbol' ? (token.description ?? '') : token;
  return namedServerToken(kind.replace(/^McpWarden:/, ''), name);
}
