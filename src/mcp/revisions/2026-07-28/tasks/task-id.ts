import { randomFillSync } from 'node:crypto';

/** Random bytes drawn from the CSPRNG a batch at a time: one system call per 256 task ids. */
const POOL = Buffer.alloc(16 * 256);
let offset = POOL.length;

/**
 * A new task id: 128 bits from the CSPRNG, base64url (22 characters). Task ids may act as
 * bearer tokens (SEP-2663), so they are never derived from anything guessable.
 */
export function newTaskId(): string {
  if (offset === POOL.length) {
    randomFillSync(POOL);
    offset = 0;
  }
  const id = POOL.toString('base64url', offset, offset + 16);
  // Used bytes are overwritten at once: an id never stays in memory it does not belong to.
  POOL.fill(0, offset, offset + 16);
  offset += 16;
  return id;
}
