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
 * The token under which a server named `name` exports `token` (a class, a
 * string or a symbol token of the module's exports): what `getMcpWardenToken`
 * and `getMcpRegistryToken` give for their classes.
 */
export function serverTokenOf(token: string | symbol | { name: string }, name: string): string {
  const kind =
    typeof token === 'object' || typeof token === 'function'
      ? token.name
      : String(typeof token === 'symbol' ? token.description : token).replace(/^McpWarden:/, '');
  return namedServerToken(kind, name);
}
