import * as crypto from 'node:crypto';
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
  const canonical = canonicalize(value ?? {}) ?? 'null';
  return oneShot
    ? oneShot('sha256', canonical, 'hex')
    : crypto.createHash('sha256').update(canonical).digest('hex');
}

/* `crypto.hash` (Node 20.12+): one call, fewer allocations than a Hash object. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string })
  .hash;
