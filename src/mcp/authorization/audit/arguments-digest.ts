import { sha256Hex } from '../../core/common/sha256.js';
import canonicalizeImport from 'canonicalize';
import { deepFreeze } from '../../core/common/deep-freeze.js';
import { needsJsonEscape } from '../../core/common/json-string.js';

type Canonicalize = (value: unknown) => string | undefined;
/* The CommonJS build's vendored copy arrives wrapped once more ({ default: fn }). */
const canonicalize: Canonicalize =
  typeof canonicalizeImport === 'function'
    ? canonicalizeImport
    : (canonicalizeImport as unknown as { default: Canonicalize }).default;

/**
 * `value` in RFC 8785 canonical JSON: the same arguments, whatever the order of their keys; or
 * undefined where they have none: a lone surrogate in a string, a number past a double's range
 * (`1e400` parses to Infinity), which RFC 8785 refuses to write.
 */
export function canonicalArguments(value: unknown): string | undefined {
  const flat = flatCanonical(value ?? {});
  if (flat !== undefined) return flat;
  try {
    return canonicalize(value ?? {}) ?? 'null';
  } catch {
    return undefined;
  }
}

/*
 * The commonest arguments, a plain object of strings, finite numbers, booleans and nulls (a
 * `{ text }`, a search's filters), written directly. canonicalize's general walk (a frame per
 * container, a Set of what it entered, a check of every string) cost about three times as much,
 * on every audited tools/call (docs/audit.md, "Performance"). Anything else, or a key or string
 * that needs escaping, or a surrogate (RFC 8785 refuses a lone one), is left to canonicalize:
 * undefined. arguments-digest.spec.ts holds the two to the same text.
 */
function flatCanonical(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  if (Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  // sort()'s default order is by UTF-16 code unit, the order RFC 8785 gives an object's members.
  const keys = Object.keys(value).sort();
  let text = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const item = (value as Record<string, unknown>)[key];
    let json: string;
    if (typeof item === 'string') {
      if (needsJsonEscape(item)) return undefined;
      json = '"' + item + '"';
    } else if (typeof item === 'number') {
      // A finite number's shortest round-trip form, which RFC 8785 takes from ECMAScript.
      if (!Number.isFinite(item)) return undefined;
      json = '' + item;
    } else if (typeof item === 'boolean') {
      json = item ? 'true' : 'false';
    } else if (item === null) {
      json = 'null';
    } else {
      return undefined;
    }
    if (needsJsonEscape(key)) return undefined;
    text += (i === 0 ? '"' : ',"') + key + '":' + json;
  }
  return text + '}';
}

/**
 * The SHA-256 (hex) of `value` in RFC 8785 canonical JSON: the same arguments always give the
 * same digest, whatever the order of their keys, so an auditor can check a claimed call's
 * arguments against the record without the record holding them.
 */
export function argumentsDigest(value: unknown): string | undefined {
  const canonical = canonicalArguments(value);
  return canonical === undefined ? undefined : sha256Hex(canonical);
}

/**
 * The arguments as they were when the decision was taken, for `audit.arguments: 'full'`: parsed
 * back from their canonical JSON (the text their digest is of) and frozen, so neither the tool,
 * which gets the caller's objects and may change them, nor an `audit$` subscriber can make the
 * record say other than what was decided on.
 */
export function argumentsSnapshot(canonical: string): unknown {
  return deepFreeze(JSON.parse(canonical) as unknown);
}
