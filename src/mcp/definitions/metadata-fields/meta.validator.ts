/*
 * `_meta` key format (spec 2025-11-25, basic §General fields): an optional
 * prefix of dot-separated labels ending in `/`, then a name. Labels start with
 * a letter and end with a letter or digit; a name, unless empty, starts and
 * ends with an alphanumeric. A prefix whose second label is
 * `modelcontextprotocol` or `mcp` (`io.modelcontextprotocol/`, `dev.mcp/`) is
 * reserved for the protocol: the framework may set those keys itself, so a
 * definition may not.
 */
const LABEL = '[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
const NAME = '(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?';
const KEY = new RegExp(`^(?:(${LABEL}(?:\\.${LABEL})*)/)?${NAME}$`);
const RESERVED_LABELS = new Set(['modelcontextprotocol', 'mcp']);

/** Why `meta` is not a valid `_meta` object, or undefined when it is. */
export function metaProblem(meta: unknown): string | undefined {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) {
    return '_meta must be an object';
  }
  for (const key of Object.keys(meta)) {
    const match = KEY.exec(key);
    if (!match) return `_meta key ${JSON.stringify(key)} is not a valid key ([prefix/]name)`;
    const second = match[1]?.split('.')[1]?.toLowerCase();
    if (second !== undefined && RESERVED_LABELS.has(second)) {
      return `_meta key ${JSON.stringify(key)} uses a prefix reserved for MCP itself`;
    }
  }
  try {
    JSON.stringify(meta);
  } catch {
    return '_meta must be JSON-serialisable';
  }
  return undefined;
}
