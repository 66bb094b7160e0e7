import { sha256Hex } from '../../core/common/sha256.js';
import canonicalizeImport from 'canonicalize';
import { deepFreeze } from '../../core/common/deep-freeze.js';

type Canonicalize = (value: unknown) => string | undefined;
/* The CommonJS build's vendored copy arrives wrapped once more ({ default: fn }). */
const canonicalize: Canonicalize =
  typeof canonicalizeImport === 'function'
    ? canonicalizeImport
    : (canonicalizeImport as unknown as { default: Canonicalize }).default;

/** `value` in RFC 8785 canonical JSON: the same arguments, whatever the order of their keys. */
export function canonicalArguments(value: unknown): string {
  return canonicalize(value ?? {}) ?? 'null';
}

/**
 * The SHA-256 (hex) of `value` in RFC 8785 canonical JSON: the same arguments always give the
 * same digest, whatever the order of their keys, so an auditor can check a claimed call's
 * arguments against the record without the record holding them.
 */
export function argumentsDigest(value: unknown): string {
  return sha256Hex(canonicalArguments(value));
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
