/**
 * The 2026-07-28 ("modern") revision: stateless, no handshake, the protocol
 * version and client capabilities in every request's `_meta`.
 * @publicApi
 */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/**
 * The modern revisions this server serves. Kept apart from the handshake-era
 * list on purpose: `initialize` must never answer with a modern version.
 * @publicApi
 */
export const SUPPORTED_MODERN_PROTOCOL_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION];

/** The reserved `_meta` keys of the modern per-request envelope (spec: basic, `_meta`). */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/**
 * Which era a message belongs to, decided per message (spec: versioning, backward compatibility).
 * @publicApi
 */
export type McpEra = 'legacy' | 'modern';

/** Handshake-era methods the modern revision removed: a modern request for one is -32601. */
export const LEGACY_ONLY_METHODS: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
]);

/** Methods that exist only in the modern revision: a handshake-era request for one is -32601. */
export const MODERN_ONLY_METHODS: ReadonlySet<string> = new Set([
  'server/discover',
  'subscriptions/listen',
  // The tasks extension (SEP-2663) is defined for this revision only.
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
]);

/** Whether `method` exists in `era`: the modern era removed some methods and added others. */
export function eraServes(method: string, era: McpEra): boolean {
  return era === 'modern' ? !LEGACY_ONLY_METHODS.has(method) : !MODERN_ONLY_METHODS.has(method);
}

/** Methods whose complete results carry `ttlMs` and `cacheScope` (spec: caching). */
export const CACHEABLE_METHODS: ReadonlySet<string> = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/** The only methods that may answer with an input-required result (spec: MRTR). */
export const INPUT_REQUIRED_METHODS: ReadonlySet<string> = new Set([
  'tools/call',
  'prompts/get',
  'resources/read',
]);
