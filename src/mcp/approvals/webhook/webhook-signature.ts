import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header that carries a webhook notice's signature. */
export const WEBHOOK_SIGNATURE_HEADER = 'Warden-Signature';

/** How old a signature a receiver accepts by default: 5 minutes. */
const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * The `Warden-Signature` value of `body` sent at `timestamp` (unix seconds):
 * `t=<timestamp>,v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`. The
 * timestamp is signed with the body, so a captured notice cannot be replayed
 * later with a fresh `t`.
 */
export function signWebhookBody(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`;
}

/**
 * What a receiver passes to `verifyWebhookSignature`.
 * @publicApi
 */
export interface VerifyWebhookSignatureInput {
  /** The `approvals.webhook.secret` the server signs with. */
  secret: string;
  /** The `Warden-Signature` header as received. */
  header: string | string[] | null | undefined;
  /** The request body exactly as received (the bytes, not a re-serialised parse). */
  body: string | Buffer;
  /** How far the signed time may be from now, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** Now, in ms since the epoch (for tests). Default `Date.now()`. */
  now?: number;
}

/**
 * Checks a webhook notice: true only when one of the header's `v1` values is
 * the HMAC-SHA256 of `"<t>.<body>"` under the secret, compared in constant
 * time, and `t` lies within the tolerance of now (either way: a clock ahead
 * is as suspect as a replay).
 *
 * @example
 * // Express, with the body kept raw: app.post('/hook', express.raw({ type: 'application/json' }), …)
 * if (!verifyWebhookSignature({ secret, header: req.get('warden-signature'), body: req.body })) {
 *   return res.sendStatus(401);
 * }
 * const notice = JSON.parse(req.body.toString('utf8'));
 *
 * @publicApi
 */
export function verifyWebhookSignature(input: VerifyWebhookSignatureInput): boolean {
  const header = Array.isArray(input.header) ? input.header[0] : input.header;
  if (typeof header !== 'string' || header.length > 1024 || !input.secret) return false;
  const fields = header.split(',').map((field) => field.trim().split('='));
  const t = fields.find(([key]) => key === 't')?.[1];
  if (t === undefined || !/^\d{1,12}$/.test(t)) return false;
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = Math.floor((input.now ?? Date.now()) / 1000);
  if (Math.abs(now - Number(t)) > tolerance) return false;
  const body = typeof input.body === 'string' ? input.body : input.body.toString('utf8');
  const expected = Buffer.from(hmacHex(input.secret, Number(t), body), 'hex');
  // Several v1 values may be sent while a secret is rotated; one match suffices.
  return fields.some(
    ([key, value]) =>
      key === 'v1' &&
      typeof value === 'string' &&
      /^[0-9a-f]{64}$/.test(value) &&
      timingSafeEqual(Buffer.from(value, 'hex'), expected),
  );
}

function hmacHex(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}
