import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { BearerTokenVerifier, McpInvalidTokenError } from './bearer-token.verifier.js';

const ISSUER = 'https://issuer.example';
const AUDIENCE = 'https://mcp.example/mcp';

async function keys() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  return { privateKey, jwks: { keys: [jwk] } };
}

describe('BearerTokenVerifier (local keys)', () => {
  it('turns a valid token into a principal: sub, scope or scp, iss, frozen claims', async () => {
    const { privateKey, jwks } = await keys();
    const verifier = new BearerTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks });
    const sign = (claims: object) =>
      new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject('alice')
        .setExpirationTime('5m')
        .sign(privateKey);
    const principal = await verifier.verify(await sign({ scope: 'notes:read notes:write' }));
    expect(principal).toMatchObject({
      subject: 'alice',
      issuer: ISSUER,
      scopes: ['notes:read', 'notes:write'],
    });
    expect(Object.isFrozen(principal.claims)).toBe(true);
    expect((await verifier.verify(await sign({ scp: ['a', 'b'] }))).scopes).toEqual(['a', 'b']);
  });

  it('refuses a token without sub, and one whose audience is not among the configured ones', async () => {
    const { privateKey, jwks } = await keys();
    const verifier = new BearerTokenVerifier({
      issuer: ISSUER,
      audience: [AUDIENCE, 'https://alt.example/mcp'],
      jwks,
    });
    const base = () =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuer(ISSUER)
        .setExpirationTime('5m');
    await expect(
      verifier.verify(await base().setAudience(AUDIENCE).sign(privateKey)),
    ).rejects.toBeInstanceOf(McpInvalidTokenError);
    const alt = await base()
      .setAudience('https://alt.example/mcp')
      .setSubject('bob')
      .sign(privateKey);
    expect((await verifier.verify(alt)).subject).toBe('bob');
    const other = await base()
      .setAudience('https://other.example/mcp')
      .setSubject('bob')
      .sign(privateKey);
    await expect(verifier.verify(other)).rejects.toBeInstanceOf(McpInvalidTokenError);
  });

  it('refuses garbage with its own error type (the message is for the log only)', async () => {
    const { jwks } = await keys();
    const verifier = new BearerTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks });
    await expect(verifier.verify('not.a.jwt')).rejects.toBeInstanceOf(McpInvalidTokenError);
  });
});

describe('BearerTokenVerifier: the identity claims', () => {
  it.each([
    ['a number sub', { sub: 123 }],
    ['an empty sub', { sub: '' }],
    ['an array sub', { sub: ['alice'] }],
  ])('refuses %s (RFC 7519: a string), which would pass for another caller', async (_, claims) => {
    const { privateKey, jwks } = await keys();
    const verifier = new BearerTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks });
    const token = await new SignJWT({ ...claims } as Record<string, unknown>)
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime('5m')
      .sign(privateKey);
    await expect(verifier.verify(token)).rejects.toBeInstanceOf(McpInvalidTokenError);
    expect(verifier.known(token)).toBeUndefined();
  });
});
