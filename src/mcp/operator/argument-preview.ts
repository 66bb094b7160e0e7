/** Keys whose values never appear in a preview (matched case-insensitively, anywhere in the key). */
const SECRET_KEY =
  /pass(word|wd|phrase)?|secret|token|key$|authori[sz]ation|^auth$|auth[-_]|credential|cookie|session|signature|^otp$|^pin$/i;

/** What stands in for a redacted value, and for what a bound cut off. */
export const REDACTED = '[redacted]';
const CUT = '…';

/** The bounds of one preview; the defaults keep it readable on a console row. */
export interface McpArgumentPreviewBounds {
  /** The longest string value shown, in characters. Default 200. */
  maxStringChars?: number;
  /** The deepest nesting shown. Default 4. */
  maxDepth?: number;
  /** Keys (or items) shown per object (or array). Default 20. */
  maxKeys?: number;
  /** The longest preview, in characters. Default 2 000. */
  maxChars?: number;
}

/**
 * A redacted, bounded JSON preview of a call's arguments, for the operator
 * who decides an ask (docs/operator-approvals.md): values under secret-looking keys are
 * replaced, long strings cut, deep or wide structures elided, and the whole
 * preview capped. The arguments are the caller's untrusted input, so nothing
 * here throws or grows with them.
 */
export function argumentPreview(args: unknown, bounds: McpArgumentPreviewBounds = {}): string {
  const limits = {
    maxStringChars: bounds.maxStringChars ?? 200,
    maxDepth: bounds.maxDepth ?? 4,
    maxKeys: bounds.maxKeys ?? 20,
  };
  const maxChars = bounds.maxChars ?? 2_000;
  const text = JSON.stringify(shrink(args, 0, limits)) ?? 'null';
  return text.length > maxChars ? text.slice(0, maxChars - CUT.length) + CUT : text;
}

type Limits = { maxStringChars: number; maxDepth: number; maxKeys: number };

function shrink(value: unknown, depth: number, limits: Limits): unknown {
  if (typeof value === 'string') {
    return value.length > limits.maxStringChars
      ? value.slice(0, limits.maxStringChars) + CUT
      : value;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  if (typeof value !== 'object') return String(typeof value);
  if (depth >= limits.maxDepth) return Array.isArray(value) ? `[${CUT}]` : `{${CUT}}`;
  if (Array.isArray(value)) {
    const shown = value.slice(0, limits.maxKeys).map((item) => shrink(item, depth + 1, limits));
    if (value.length > limits.maxKeys) shown.push(`${CUT} ${value.length - limits.maxKeys} more`);
    return shown;
  }
  const out: Record<string, unknown> = {};
  let count = 0;
  let more = false;
  // for…in, not Object.keys: an object with a million keys is never copied into an array.
  for (const key in value as Record<string, unknown>) {
    if (!Object.hasOwn(value, key)) continue;
    if (count >= limits.maxKeys) {
      more = true;
      break;
    }
    count++;
    const shownKey = key.length > 100 ? key.slice(0, 100) + CUT : key;
    out[shownKey] = SECRET_KEY.test(key)
      ? REDACTED
      : shrink((value as Record<string, unknown>)[key], depth + 1, limits);
  }
  if (more) out[CUT] = 'more keys';
  return out;
}
