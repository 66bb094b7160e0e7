import { randomBytes } from 'node:crypto';
import { exportJWK, exportSPKI, generateKeyPair, type CryptoKey, type JWK } from 'jose';

/** An RS256 signing key pair with its `kid`, as a JWK (private, for the issuer) and a public JWK. */
export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** The private JWK (with `kid`, `alg`, `use`), the shape `oidc-provider` takes in `jwks.keys`. */
  privateJwk: JWK;
  /** The public JWK, as published at the issuer's `jwks_uri`. */
  publicJwk: JWK;
  /** The public key as a PEM SubjectPublicKeyInfo (used to build HS256 key-confusion tokens). */
  publicPem: string;
}

/** Generates an RS256 key pair whose JWKs carry `kid` (random unless given). */
export async function generateSigningKey(kid = `k-${randomBytes(6).toString('hex')}`) {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const common = { kid, alg: 'RS256', use: 'sig' };
  const key: SigningKey = {
    kid,
    privateKey,
    publicKey,
    privateJwk: { ...(await exportJWK(privateKey)), ...common },
    publicJwk: { ...(await exportJWK(publicKey)), ...common },
    publicPem: await exportSPKI(publicKey),
  };
  return key;
}
