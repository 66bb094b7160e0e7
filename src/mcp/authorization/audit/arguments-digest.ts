import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * The SHA-256 (hex) of `value` in RFC 8785 canonical JSON: the same arguments always give the
 * same digest, whatever the order of their keys, so an auditor can check a claimed call's
 * arguments against the record without the record holding them.
 */
export function argumentsDigest(value: unknown): string {
  return createHash('sha256')
    .update(canonicalize(value ?? {}) ?? 'null')
    .digest('hex');
}
