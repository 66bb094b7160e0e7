import type { McpTasksOptions, ResolvedTasksOptions } from './tasks-options.interface.js';

const DEFAULT_TTL_MS = 600_000;
const DEFAULT_POLL_INTERVAL_MS = 1_000;

/** Applies the defaults: a value that is not a positive integer (zero for `immediateMs`) is replaced. */
export function resolveTasksOptions(options: McpTasksOptions = {}): ResolvedTasksOptions {
  const integer = (value: number | undefined, fallback: number, min: number) =>
    Number.isInteger(value) && value! >= min ? value! : fallback;
  return {
    ttlMs: integer(options.ttlMs, DEFAULT_TTL_MS, 1),
    pollIntervalMs: integer(options.pollIntervalMs, DEFAULT_POLL_INTERVAL_MS, 1),
    immediateMs: integer(options.immediateMs, 0, 0),
    ...(options.store ? { store: options.store } : {}),
  };
}
