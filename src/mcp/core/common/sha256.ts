import * as crypto from 'node:crypto';

/**
 * SHA-256, hex. The one-shot `crypto.hash` where the runtime has it (Node 20.12+) allocates no
 * Hash object, which matters where it runs on every call (the audit's digests).
 */
export const sha256Hex: (data: string) => string =
  typeof (crypto as { hash?: unknown }).hash === 'function'
    ? (data) =>
        (crypto as unknown as { hash(a: string, d: string, e: 'hex'): string }).hash(
          'sha256',
          data,
          'hex',
        )
    : (data) => crypto.createHash('sha256').update(data).digest('hex');
