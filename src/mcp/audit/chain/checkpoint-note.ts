import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/*
 * C2SP signed notes and checkpoints (c2sp.org/signed-note, c2sp.org/tlog-checkpoint): the body
 * is `origin\nsize\nbase64(hash)\n`; a signature line is `— <key name> <base64(key id ||
 * signature)>`, where the key id is the first 4 bytes of SHA-256(name || 0x0A || 0x01 ||
 * Ed25519 public key). Small and fixed by the spec; no maintained JavaScript library writes it.
 */

const ED25519 = 0x01;
const DASH = '\u2014';

/** A checkpoint's content. */
export interface CheckpointBody {
  readonly origin: string;
  readonly size: number;
  /** The head record's digest, hex. */
  readonly head: string;
}

/** The raw 32 bytes of an Ed25519 public key. */
function rawPublicKey(key: KeyObject): Buffer {
  const jwk = key.export({ format: 'jwk' });
  if (jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') {
    throw new Error('the audit signing key must be an Ed25519 key');
  }
  return Buffer.from(jwk.x, 'base64url');
}

/** The signed-note key id of `name` and `publicKey`. */
export function keyIdOf(name: string, publicKey: KeyObject): Buffer {
  return createHash('sha256')
    .update(
      Buffer.concat([Buffer.from(`${name}\n`), Buffer.from([ED25519]), rawPublicKey(publicKey)]),
    )
    .digest()
    .subarray(0, 4);
}

/** The note's body text. */
export function checkpointText(body: CheckpointBody): string {
  return `${body.origin}\n${body.size}\n${Buffer.from(body.head, 'hex').toString('base64')}\n`;
}

/** Signs a checkpoint: its body, a blank line, one signature line. */
export function signCheckpoint(body: CheckpointBody, name: string, privateKey: KeyObject): string {
  const text = checkpointText(body);
  const signature = sign(null, Buffer.from(text), privateKey);
  const keyId = keyIdOf(name, createPublicKey(privateKey));
  return `${text}\n${DASH} ${name} ${Buffer.concat([keyId, signature]).toString('base64')}\n`;
}

/** What a note says, and whether `publicKey` signed it. */
export interface OpenedCheckpoint extends CheckpointBody {
  /**
   * `signed`: valid under the key; `other-key`: signed by a key that is not this one;
   * `invalid`: this key's id, but the signature does not hold (the note was changed), or no
   * signature line at all.
   */
  readonly signature: 'signed' | 'other-key' | 'invalid';
}

/** What a note says (its origin, size and head), its signatures unchecked. */
export function checkpointBody(note: string): CheckpointBody {
  const split = note.indexOf('\n\n');
  const text = split >= 0 ? note.slice(0, split + 1) : note;
  const [origin = '', size = '', hash = ''] = text.split('\n');
  return { origin, size: Number(size), head: Buffer.from(hash, 'base64').toString('hex') };
}

/** Parses a note and checks its signature against `publicKey` (any key name). */
export function openCheckpoint(note: string, publicKey: KeyObject): OpenedCheckpoint {
  const split = note.indexOf('\n\n');
  const text = split >= 0 ? note.slice(0, split + 1) : note;
  const body = checkpointBody(note);
  const lines =
    split >= 0
      ? note
          .slice(split + 2)
          .split('\n')
          .filter(Boolean)
      : [];
  let seen: OpenedCheckpoint['signature'] = 'invalid';
  let ourKey = false;
  for (const line of lines) {
    const match = new RegExp(`^${DASH} (\\S+) (\\S+)$`).exec(line);
    if (!match) continue;
    const blob = Buffer.from(match[2]!, 'base64');
    if (blob.length !== 68) continue;
    if (!keyIdOf(match[1]!, publicKey).equals(blob.subarray(0, 4))) {
      seen = 'other-key';
      continue;
    }
    ourKey = true;
    if (verify(null, Buffer.from(text), publicKey, blob.subarray(4))) {
      return { ...body, signature: 'signed' };
    }
  }
  return { ...body, signature: ourKey ? 'invalid' : seen };
}
