import { META } from '../../core/protocol/era.constants.js';

/** How long, and for whom, a client may cache a result (spec: caching). */
export interface McpCacheHint {
  readonly ttlMs: number;
  readonly cacheScope: 'public' | 'private';
}

/**
 * A complete modern result: `resultType`, the server's identity in `_meta`
 * (spec: a SHOULD on every result), and the cache hint on cacheable methods.
 * The handler's own fields and `_meta` entries are kept.
 */
export function completeResult(
  result: object,
  serverInfo: object,
  cache: McpCacheHint | undefined,
): object {
  const own = result as { _meta?: Record<string, unknown> };
  const shaped: Record<string, unknown> = {
    ...result,
    resultType: 'complete',
    _meta: { ...own._meta, [META.serverInfo]: serverInfo },
  };
  if (cache) {
    shaped.ttlMs = cache.ttlMs;
    shaped.cacheScope = cache.cacheScope;
  }
  return shaped;
}

/** A `CreateTaskResult` (SEP-2663): the task's fields, flat, with `resultType: "task"`. */
export function taskResult(task: object, serverInfo: object): object {
  return { ...task, resultType: 'task', _meta: { [META.serverInfo]: serverInfo } };
}
