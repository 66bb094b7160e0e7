import type { ReadResourceResult } from '../../core/protocol/mcp-types.js';

/**
 * Turns what a resource handler returned into a `ReadResourceResult`: text,
 * bytes (base64 `blob`), or a full result whose `contents` is kept as is.
 */
export function normalizeResourceResult(
  value: unknown,
  uri: string,
  mimeType: string | undefined,
): ReadResourceResult {
  const base = mimeType === undefined ? { uri } : { uri, mimeType };
  if (typeof value === 'string') return { contents: [{ ...base, text: value }] };
  if (value instanceof Uint8Array) {
    return { contents: [{ ...base, blob: Buffer.from(value).toString('base64') }] };
  }
  if (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as ReadResourceResult).contents)
  ) {
    return value as ReadResourceResult;
  }
  throw new TypeError(`resource handler for ${uri} returned neither text, bytes nor contents`);
}
