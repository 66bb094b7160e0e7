// The identity the authenticated rows use: an RS256 key pair made for this run, the public half
// handed to the server as a local JWKS (so no key is ever fetched: the "cached key" case), and one
// access token signed with the private half, sent as `Authorization: Bearer` on every request.
import { SignJWT, exportJWK, generateKeyPair } from 'jose';

const ISSUER = 'https://issuer.bench.invalid';
const AUDIENCE = 'https://warden.bench.invalid/mcp';
const KID = 'bench-rs256';

/** `{ env, headers }`: the server's WARDEN_AUTH setting and the headers every request carries. */
export async function createBenchAuth() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  const token = await new SignJWT({ scope: 'mcp:tools' })
    .setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'at+jwt' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject('bench-client')
    .setIssuedAt()
    // Long enough for the longest full run; the token is never written anywhere.
    .setExpirationTime('6h')
    .sign(privateKey);
  return {
    env: {
      WARDEN_AUTH: JSON.stringify({ issuer: ISSUER, audience: AUDIENCE, jwks: { keys: [jwk] } }),
    },
    headers: { Authorization: `Bearer ${token}` },
  };
}
