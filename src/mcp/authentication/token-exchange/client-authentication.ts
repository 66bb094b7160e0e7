import { createPrivateKey, type KeyObject } from 'node:crypto';
import { loadJose } from '../../core/common/jose.loader.js';
import type { McpTokenExchangeOptions } from './token-exchange.options.js';

/*
 * How the server authenticates at the issuer's token endpoint as its own client: the checks at
 * boot, and the key `private_key_jwt` signs with (docs/token-exchange.md).
 */

/* Boot refuses what cannot work: one client authentication, a client id. */
export function checkOptions(options: McpTokenExchangeOptions): void {
  if (typeof options.clientId !== 'string' || options.clientId === '') {
    throw new Error('http.auth.tokenExchange.clientId must be a non-empty string');
  }
  if ((options.clientSecret === undefined) === (options.privateKey === undefined)) {
    throw new Error(
      'http.auth.tokenExchange needs exactly one of clientSecret (client_secret_basic) and privateKey (private_key_jwt)',
    );
  }
  // A key that cannot sign fails here, at boot, rather than at every exchange.
  if (options.privateKey !== undefined) algorithmOf(privateKeyOf(options.privateKey));
}

/** `private_key_jwt`'s key as WebCrypto holds it, for the JOSE algorithm its type implies. */
export async function signingKey(privateKey: string | KeyObject) {
  const key = privateKeyOf(privateKey);
  const { importPKCS8 } = await loadJose();
  const pem = key.export({ type: 'pkcs8', format: 'pem' }).toString();
  return importPKCS8(pem, algorithmOf(key));
}

function privateKeyOf(privateKey: string | KeyObject): KeyObject {
  const key = typeof privateKey === 'string' ? createPrivateKey(privateKey) : privateKey;
  if (key.type !== 'private') {
    throw new Error('http.auth.tokenExchange.privateKey must be a private key');
  }
  return key;
}

/** The JOSE algorithm `private_key_jwt` signs with: RS256, ES256 (P-256 only) or EdDSA. */
function algorithmOf(key: KeyObject): string {
  const type = key.asymmetricKeyType;
  if (type === 'rsa') return 'RS256';
  if (type === 'ed25519') return 'EdDSA';
  if (type === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256';
  throw new Error(
    'http.auth.tokenExchange.privateKey must be an RSA, EC P-256 or Ed25519 private key',
  );
}
