import { isJsonObject } from '../../../core/protocol/jsonrpc.js';

/** One tool argument mirrored in an `Mcp-Param-{Name}` header (`x-mcp-header`, SEP-2243). */
export interface McpParamHeader {
  /** The header's name without the `Mcp-Param-` prefix. */
  readonly name: string;
  /** Where the argument sits in `arguments`: a chain of `properties` keys. */
  readonly path: readonly string[];
  readonly type: unknown;
}

/* Read once per input schema object (tools are immutable once registered). */
const declared = new WeakMap<object, readonly McpParamHeader[]>();
const MAX_DEPTH = 8;

/**
 * The `x-mcp-header` declarations of a tool's input schema, reachable only
 * through chains of `properties` (spec: the annotation is not allowed under
 * `items`, `oneOf`, `$ref` and the like, so nothing else is looked at).
 */
export function mcpParamHeadersOf(inputSchema: object): readonly McpParamHeader[] {
  let found = declared.get(inputSchema);
  if (!found) {
    const headers: McpParamHeader[] = [];
    collect(inputSchema, [], headers, 0);
    found = headers;
    declared.set(inputSchema, found);
  }
  return found;
}

function collect(schema: unknown, path: string[], into: McpParamHeader[], depth: number): void {
  if (!isJsonObject(schema) || depth > MAX_DEPTH) return;
  const properties = schema.properties;
  if (!isJsonObject(properties)) return;
  for (const [key, property] of Object.entries(properties)) {
    if (!isJsonObject(property)) continue;
    const name = property['x-mcp-header'];
    if (typeof name === 'string' && name.length > 0) {
      into.push({ name, path: [...path, key], type: property.type });
    }
    collect(property, [...path, key], into, depth + 1);
  }
}

/** The argument at `path`, if there is one. */
export function argumentAt(args: unknown, path: readonly string[]): unknown {
  let node = args;
  for (const key of path) {
    if (!isJsonObject(node)) return undefined;
    node = node[key];
  }
  return node;
}
