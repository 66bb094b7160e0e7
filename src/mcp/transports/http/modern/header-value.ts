/** SEP-2243: a header value outside visible ASCII travels as `=?base64?<base64 of UTF-8>?=`. */
const SENTINEL = /^=\?base64\?(.*)\?=$/s;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * A standard or `Mcp-Param-*` header's value: the decoded text when it uses
 * the Base64 sentinel, the value itself otherwise; undefined when the
 * sentinel's payload is not canonical Base64 of valid UTF-8 (the spec says
 * to reject such values).
 */
export function decodeHeaderValue(raw: string): string | undefined {
  const value = raw.trim();
  const match = SENTINEL.exec(value);
  // Without both the prefix and the suffix it is not the sentinel: the value is literal.
  if (!match) return value;
  if (match[1].length % 4 !== 0 || !BASE64.test(match[1])) return undefined;
  const bytes = Buffer.from(match[1], 'base64');
  // Canonical only: re-encoding must give back exactly what was sent.
  if (bytes.toString('base64') !== match[1]) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** How an argument is written in its header: integers and booleans as JSON, strings as they are. */
export function headerFormOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}
