import { createHmac } from 'node:crypto';
import { WebhookLinkCodec, type WebhookLinkClaims } from './webhook-link.codec.js';

const SECRET = 'a webhook secret of some length';
const NOW = 1_800_000_000_000;
const CLAIMS: WebhookLinkClaims = {
  askId: 'ask-1',
  decision: 'approve',
  exp: NOW + 60_000,
  jti: WebhookLinkCodec.newJti(),
};

describe('webhook link codec', () => {
  const codec = new WebhookLinkCodec(SECRET);

  it('round-trips its claims in a URL-safe token', () => {
    const token = codec.encode(CLAIMS);
    expect(token).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(codec.decode(token, NOW)).toEqual({ ok: true, claims: CLAIMS });
  });

  it('refuses a token signed under another secret', () => {
    const token = new WebhookLinkCodec(SECRET + '!').encode(CLAIMS);
    expect(codec.decode(token, NOW)).toEqual({ ok: false, problem: 'bad signature' });
  });

  it('refuses a token whose claims were changed (deny turned into approve)', () => {
    const token = codec.encode({ ...CLAIMS, decision: 'deny' });
    const forged = Buffer.from(
      JSON.stringify({ i: CLAIMS.askId, d: 'approve', e: CLAIMS.exp, j: CLAIMS.jti }),
    ).toString('base64url');
    expect(codec.decode(`${forged}.${token.split('.')[1]}`, NOW)).toEqual({
      ok: false,
      problem: 'bad signature',
    });
  });

  it('refuses an expired token, naming it expired only when the signature holds', () => {
    const token = codec.encode(CLAIMS);
    expect(codec.decode(token, CLAIMS.exp)).toEqual({
      ok: false,
      problem: 'expired',
      claims: CLAIMS,
    });
    expect(codec.decode(token, CLAIMS.exp - 1).ok).toBe(true);
  });

  it('refuses garbled tokens without parsing them', () => {
    for (const token of ['', 'abc', 'a.b.c', 'a b.c', 'x'.repeat(600) + '.y']) {
      expect(codec.decode(token, NOW)).toEqual({ ok: false, problem: 'garbled' });
    }
    expect(codec.decode('abc.def', NOW)).toEqual({ ok: false, problem: 'bad signature' });
  });

  it('refuses a well-signed payload of the wrong shape', () => {
    const payload = Buffer.from(JSON.stringify({ i: 'a', d: 'maybe', e: 1, j: 'j' })).toString(
      'base64url',
    );
    const mac = (codec as unknown as { mac(p: string): Buffer }).mac(payload).toString('base64url');
    expect(codec.decode(`${payload}.${mac}`, NOW)).toEqual({ ok: false, problem: 'garbled' });
  });

  it('does not sign with the secret itself (a link MAC is no webhook signature)', () => {
    const token = codec.encode(CLAIMS);
    const [payload, mac] = token.split('.') as [string, string];
    expect(createHmac('sha256', SECRET).update(payload).digest('base64url')).not.toBe(mac);
  });
});
