import type { AnnotationsSchema, IconSchema } from '@modelcontextprotocol/core';
import type { z } from 'zod';

/**
 * An icon a client may show beside a tool, resource, template, prompt or the
 * server itself (spec 2025-11-25 `Icon`): `src` is an `https:`/`http:` URL or
 * a base64 `data:image/…` URI; `sizes` such as `['48x48']` or `['any']`.
 * @publicApi
 */
export type McpIcon = z.infer<typeof IconSchema>;

/**
 * A definition's `_meta`, listed verbatim. Keys follow the spec's format (an
 * optional `reverse.dns/` prefix, then a name); prefixes whose second label is
 * `modelcontextprotocol` or `mcp` are the protocol's own and are refused.
 * @publicApi
 */
export type McpMeta = Record<string, unknown>;

/**
 * Who a resource is for, how much it matters and when it last changed (spec
 * `Annotations`): `audience` of `'user'`/`'assistant'`, `priority` from 0 to 1,
 * `lastModified` an ISO 8601 timestamp.
 * @publicApi
 */
export type McpResourceAnnotations = z.infer<typeof AnnotationsSchema>;

/**
 * What every listed definition may carry for display, passed through into its
 * entry of `tools/list`, `resources/list`, `resources/templates/list` or
 * `prompts/list`. Checked at registration: a bad icon or `_meta` key fails the
 * boot with a message naming the method.
 * @publicApi
 */
export interface McpDisplayOptions {
  /** A human-readable name for UIs (the `name` stays the identifier). */
  title?: string;
  icons?: McpIcon[];
  _meta?: McpMeta;
}
