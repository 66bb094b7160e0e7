import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** What a link decides. */
export type WebhookLinkDecision = 'approve' | 'deny';

/** What a signed link carries. */
export interface WebhookLinkClaims {
  /** The ask it decides. */
  readonly askId: string;
  readonly decision: WebhookLinkDecision;
  /** When the link stops working, ms since the epoch. */
  readonly exp: number;
  /** The link's own id: it is consumed once, and names the link in the audit. */
  readonly jti: string;
}

/** Why a token was refused. */
export type WebhookLinkProblem = 'garbled' | 'bad signature' | 'expired';

/** A decoded token: its claims, or why it was refused. */
export type DecodedWebhookLink =
  | { readonly ok: true; readonly claims: WebhookLinkClaims }
  | {
      readonly ok: false;
      readonly problem: WebhookLinkProblem;
      readonly claims?: WebhookLinkClaims;
    };

/** Longer than any token this codec makes; anything longer is refused unread. */
const MAX_TOKEN_CHARS = 512;
const MAC_BYTES = 32;

/**
 * Signs and checks the approve/deny links' tokens:
 * `base64url(JSON claims) "." base64url(HMAC-SHA256)`. The key is derived
 * from the webhook secret (HKDF), not the secret itself, so a link's MAC can
 * never pass for a notice's signature, nor the other way round.
 */
export class WebhookLinkCodec {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'mcp-warden', 'webhook-link v1', 32));
  }

  /** A fresh link id: 128 random bits. */
  static newJti(): string {
    return randomBytes(16).toString('base64url');
  }

  encode(claims: WebhookLinkClaims): string {
    const payload = Buffer.from(
      JSON.stringify({ i: claims.askId, d: claims.decision, e: claims.exp, j: claims.jti }),
    ).toString('base64url');
    return `${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** Checks the MAC first (nothing unsigned is parsed), then the expiry against `now`. */
  decode(token: string, now = Date.now()): DecodedWebhookLink {
    if (token.length > MAX_TOKEN_CHARS || !/^[\w-]+\.[\w-]+$/.test(token)) {
      return { ok: false, problem: 'garbled' };
    }
    const [payload, mac] = token.split('.') as [string, string];
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== MAC_BYTES || !timingSafeEqual(given, this.mac(payload))) {
      return { ok: false, problem: 'bad signature' };
    }
    const claims = parseClaims(payload);
    if (!claims) return { ok: false, problem: 'garbled' };
    return claims.exp <= now ? { ok: false, problem: 'expired', claims } : { ok: true, claims };
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.key).update(payload).digest();
  }
}

function parseClaims(payload: string): WebhookLinkClaims | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const { i, d, e, j } = (raw ?? {}) as Record<string, unknown>;
  if (typeof i !== 'string' || typeof j !== 'string' || !Number.isSafeInteger(e)) return undefined;
  if (d !== 'approve' && d !== 'deny') return undefined;
  return { askId: i, decision: d, exp: e as number, jti: j };
}
