// The identity the authenticated rows use: an RS256 key pair made for this run, the public half
// handed to the server as a local JWKS (so no key is ever fetched: the "cached key" case), and one
// access token signed with the private half, sent as `Authorization: Bearer` on every request.
// The token exchange row (docs/token-exchange.md) also gets an issuer's token endpoint for RFC 8693
// on loopback, signing with the same key: with its cache warm the server asks it once per caller.
import { SignJWT, decodeJwt, exportJWK, generateKeyPair } from 'jose';
import { createServer } from 'node:http';

const ISSUER = 'https://issuer.bench.invalid';
const AUDIENCE = 'https://warden.bench.invalid/mcp';
const KID = 'bench-rs256';
/** The downstream audience `echo_exchange` asks a token for. */
export const EXCHANGE_AUDIENCE = 'https://downstream.bench.invalid/api';
const EXCHANGE_CLIENT = { clientId: 'bench-warden', clientSecret: 'bench-warden-secret' };

/**
 * `{ env, headers, exchangeEnv, close }`: the server's WARDEN_AUTH setting (and, for the exchange
 * row, the same with `tokenExchange`), the headers every request carries, and the token endpoint's
 * shutdown.
 */
export async function createBenchAuth() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  const sign = (claims, audience, subject) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'at+jwt' })
      .setIssuer(ISSUER)
      .setAudience(audience)
      .setSubject(subject)
      .setIssuedAt()
      // Long enough for the longest full run; the token is never written anywhere.
      .setExpirationTime('6h')
      .sign(privateKey);
  const token = await sign({ scope: 'mcp:tools' }, AUDIENCE, 'bench-client');
  const endpoint = await startTokenEndpoint(sign);
  const auth = { issuer: ISSUER, audience: AUDIENCE, jwks: { keys: [jwk] } };
  return {
    env: { WARDEN_AUTH: JSON.stringify(auth) },
    exchangeEnv: {
      WARDEN_AUTH: JSON.stringify({
        ...auth,
        tokenExchange: { ...EXCHANGE_CLIENT, tokenEndpoint: endpoint.url },
      }),
    },
    headers: { Authorization: `Bearer ${token}` },
    close: endpoint.close,
  };
}

/*
 * A token endpoint that grants RFC 8693 exchanges to the bench's client: a JWT for the requested
 * audience, with the subject token's `sub` and the client as actor. The bench's, not a product's:
 * the rows measure the server with its cache warm, where this is asked once per caller.
 */
async function startTokenEndpoint(sign) {
  // RFC 6749 §2.3.1: the id and secret are form-encoded before Basic's base64.
  const authenticated = (header) => {
    const [id, secret] = Buffer.from(/^Basic (.+)$/.exec(header ?? '')?.[1] ?? '', 'base64')
      .toString()
      .split(':')
      .map((part) => decodeURIComponent(part));
    return id === EXCHANGE_CLIENT.clientId && secret === EXCHANGE_CLIENT.clientSecret;
  };
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', async () => {
      const params = new URLSearchParams(body);
      const reply = (status, value) => {
        res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify(value));
      };
      if (!authenticated(req.headers.authorization)) return reply(401, { error: 'invalid_client' });
      if (params.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:token-exchange')
        return reply(400, { error: 'unsupported_grant_type' });
      const subject = decodeJwt(params.get('subject_token') ?? '').sub;
      const accessToken = await sign(
        { act: { sub: EXCHANGE_CLIENT.clientId } },
        params.get('audience'),
        subject,
      );
      reply(200, {
        access_token: accessToken,
        issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
        token_type: 'Bearer',
        expires_in: 6 * 3600,
      });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/token`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
