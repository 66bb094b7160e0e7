import { createHmac } from 'node:crypto';
import { signWebhookBody, verifyWebhookSignature } from './webhook-signature.js';

const SECRET = 'a webhook secret of some length';
const BODY = '{"type":"approval.pending","id":"abc"}';
const NOW = 1_800_000_000_000;
const T = NOW / 1000;

describe('webhook signature', () => {
  it('signs t and the body with HMAC-SHA256 under the secret, as documented', () => {
    const expected = createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex');
    expect(signWebhookBody(SECRET, BODY, T)).toBe(`t=${T},v1=${expected}`);
  });

  it('verifies its own signature, from a string or the raw bytes', () => {
    const header = signWebhookBody(SECRET, BODY, T);
    expect(verifyWebhookSignature({ secret: SECRET, header, body: BODY, now: NOW })).toBe(true);
    expect(
      verifyWebhookSignature({
        secret: SECRET,
        header: [header],
        body: Buffer.from(BODY),
        now: NOW,
      }),
    ).toBe(true);
  });

  it('refuses another body, another secret, or a changed timestamp', () => {
    const header = signWebhookBody(SECRET, BODY, T);
    const verify = (input: Partial<Parameters<typeof verifyWebhookSignature>[0]>) =>
      verifyWebhookSignature({ secret: SECRET, header, body: BODY, now: NOW, ...input });
    expect(verify({ body: BODY.replace('abc', 'abd') })).toBe(false);
    expect(verify({ secret: SECRET + '!' })).toBe(false);
    expect(verify({ header: header.replace(`t=${T}`, `t=${T + 1}`) })).toBe(false);
  });

  it('refuses a signature outside the tolerance, either way, and accepts one inside', () => {
    const header = signWebhookBody(SECRET, BODY, T);
    const at = (now: number, toleranceSeconds?: number) =>
      verifyWebhookSignature({ secret: SECRET, header, body: BODY, now, toleranceSeconds });
    expect(at(NOW + 300_000)).toBe(true);
    expect(at(NOW + 301_000)).toBe(false);
    expect(at(NOW - 301_000)).toBe(false);
    expect(at(NOW + 10_000, 5)).toBe(false);
  });

  it('accepts any one matching v1 (a secret being rotated) and refuses garbage', () => {
    const good = signWebhookBody(SECRET, BODY, T);
    const other = signWebhookBody('the previous secret value', BODY, T).split(',')[1];
    const rotated = `${good.split(',')[0]},${other},${good.split(',')[1]}`;
    expect(verifyWebhookSignature({ secret: SECRET, header: rotated, body: BODY, now: NOW })).toBe(
      true,
    );
    for (const header of [undefined, null, '', 'v1=00', `t=${T}`, `t=x,v1=${'0'.repeat(64)}`]) {
      expect(verifyWebhookSignature({ secret: SECRET, header, body: BODY, now: NOW })).toBe(false);
    }
    expect(verifyWebhookSignature({ secret: '', header: good, body: BODY, now: NOW })).toBe(false);
  });
});
