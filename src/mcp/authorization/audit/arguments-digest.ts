import { sha256Hex } from '../../core/common/sha256.js';
import canonicalizeImport from 'canonicalize';

type Canonicalize = (value: unknown) => string | undefined;
/* The CommonJS build's vendored copy arrives wrapped once more ({ default: fn }). */
const canonicalize: Canonicalize =
  typeof canonicalizeImport === 'function'
    ? canonicalizeImport
    : (canonicalizeImport as unknown as { default: Canonicalize }).default;

/**
 * The SHA-256 (hex) of `value` in RFC 8785 canonical JSON: the same arguments always give the
 * same digest, whatever the order of their keys, so an auditor can check a claimed call's
 * arguments against the record without the record holding them.
 */
export function argumentsDigest(value: unknown): string {
  return sha256Hex(canonicalize(value ?? {}) ?? 'null');
}
