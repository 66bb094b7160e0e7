import { randomBytes } from 'node:crypto';
import { resolveMcpOptions } from '../../../options/options.resolver.js';
import type { McpRequestStatePayload } from '../../../core/multi-round-trip/request-state.js';
import { McpRequestStateSealer } from './request-state.sealer.js';

function sealer(stateSecret?: string): McpRequestStateSealer {
  return new McpRequestStateSealer(resolveMcpOptions({ name: 't', version: '1', stateSecret }));
}

const PAYLOAD: McpRequestStatePayload = {
  v: 1,
  b: 'tools/call\u0000transfer\u0000digest',
  p: 'https://issuer\u0000alice',
  exp: 1_700_000_060_000,
  n: 'nonce-1',
  q: ['approval'],
  a: { 'elicit-0': { action: 'accept', content: { name: 'Ada' } } },
  ok: true,
};

/* The same state with the character at `index` replaced by another base64url character. */
function changedAt(state: string, index: number): string {
  const replacement = state[index] === 'A' ? 'B' : 'A';
  return state.slice(0, index) + replacement + state.slice(index + 1);
}

describe('McpRequestStateSealer', () => {
  const secret = 'correct horse battery staple';

  it('with several servers, one secret seals per server: a state of one never opens on another', async () => {
    const of = (name: string) =>
      new McpRequestStateSealer(resolveMcpOptions({ name, version: '1', stateSecret: secret }), {
        several: true,
      });
    const state = await of('admin').seal(PAYLOAD);
    expect(await of('admin').open(state)).toEqual(PAYLOAD);
    expect(await of('partner').open(state)).toBeUndefined();
    // A lone server keeps its key: states sealed before a second server existed are its own.
    expect(await sealer(secret).open(state)).toBeUndefined();
  });

  it('opens what it sealed to the same payload', async () => {
    const s = sealer(secret);
    await expect(s.open(await s.seal(PAYLOAD))).resolves.toEqual(PAYLOAD);
  });

  it('seals the same payload differently each time, as a compact JWE the client cannot read', async () => {
    const s = sealer(secret);
    const [one, two] = [await s.seal(PAYLOAD), await s.seal(PAYLOAD)];
    expect(one).not.toBe(two);
    expect(one.split('.')).toHaveLength(5);
    expect(one).not.toContain('alice');
    expect(Buffer.from(one.split('.')[3], 'base64url').toString()).not.toContain('alice');
  });

  it('opens a state changed by one character to undefined, whichever part is changed', async () => {
    const s = sealer(secret);
    const state = await s.seal(PAYLOAD);
    const parts = state.split('.');
    // The first character of the header, IV, ciphertext and tag, and one mid-ciphertext.
    let offset = 0;
    const indices: number[] = [];
    for (const part of parts) {
      if (part.length > 0) indices.push(offset);
      offset += part.length + 1;
    }
    indices.push(parts[0].length + parts[1].length + parts[2].length + 3 + 10);
    for (const index of indices) {
      await expect(s.open(changedAt(state, index))).resolves.toBeUndefined();
    }
  });

  it('opens a truncated state to undefined', async () => {
    const s = sealer(secret);
    const state = await s.seal(PAYLOAD);
    await expect(s.open(state.slice(0, -1))).resolves.toBeUndefined();
    await expect(s.open(state.slice(0, state.lastIndexOf('.')))).resolves.toBeUndefined();
    await expect(s.open(state.slice(0, state.length / 2))).resolves.toBeUndefined();
  });

  it.each([
    ['a random string', randomBytes(48).toString('base64url')],
    ['an empty string', ''],
    ['five random dot-separated parts', Array.from({ length: 5 }, () => 'QUJD').join('.')],
  ])('opens %s to undefined', async (_label, state) => {
    await expect(sealer(secret).open(state)).resolves.toBeUndefined();
  });

  it('opens a string longer than limits.maxBodyBytes to undefined, unread', async () => {
    const small = new McpRequestStateSealer(
      resolveMcpOptions({
        name: 't',
        version: '1',
        stateSecret: secret,
        limits: { maxBodyBytes: 1024 },
      }),
    );
    await expect(small.open('A'.repeat(1025))).resolves.toBeUndefined();
  });

  it('refuses to seal a state that could not come back in a request body (-32603)', async () => {
    const small = new McpRequestStateSealer(
      resolveMcpOptions({
        name: 't',
        version: '1',
        stateSecret: secret,
        limits: { maxBodyBytes: 1024 },
      }),
    );
    const payload = {
      v: 1 as const,
      b: 'b',
      p: '',
      exp: Date.now() + 1000,
      n: 'n',
      q: [],
      a: { big: 'x'.repeat(2000) },
    };
    await expect(small.seal(payload)).rejects.toMatchObject({ code: -32603 });
  });

  it('opens a state sealed with another stateSecret to undefined', async () => {
    const state = await sealer('another secret').seal(PAYLOAD);
    await expect(sealer(secret).open(state)).resolves.toBeUndefined();
  });

  it('opens a state of another format version to undefined', async () => {
    const s = sealer(secret);
    const state = await s.seal({ ...PAYLOAD, v: 2 } as unknown as McpRequestStatePayload);
    await expect(s.open(state)).resolves.toBeUndefined();
  });

  it('lets two sealers with the same stateSecret open each other’s states', async () => {
    const [one, two] = [sealer(secret), sealer(secret)];
    await expect(two.open(await one.seal(PAYLOAD))).resolves.toEqual(PAYLOAD);
    await expect(one.open(await two.seal(PAYLOAD))).resolves.toEqual(PAYLOAD);
  });

  it('gives each sealer without a secret its own key: they do not open each other’s states', async () => {
    const [one, two] = [sealer(), sealer()];
    await expect(one.open(await one.seal(PAYLOAD))).resolves.toEqual(PAYLOAD);
    await expect(two.open(await one.seal(PAYLOAD))).resolves.toBeUndefined();
  });

  it('treats an empty stateSecret as none', async () => {
    const [one, two] = [sealer(''), sealer('')];
    await expect(two.open(await one.seal(PAYLOAD))).resolves.toBeUndefined();
  });
});
