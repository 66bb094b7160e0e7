import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AppModule } from '../../src/app/app.module.js';
import { freePort } from '../auth/auth-app.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import { setProcessEnv } from '../support/process-env.js';
import { makeDataDir, removeDataDir } from '../support/stdio-child.js';

/*
 * The service's operator console, configured from the environment: with
 * APPROVALS_CLIENT_ID and APPROVALS_PUBLIC_URL it serves /approvals, whose
 * sign-in sends the operator to the API's own issuer (a real oidc-provider)
 * with an authorization-code request that uses PKCE.
 */

let issuer: TestIssuer;
let dataDir: string;
let app: INestApplication;
let origin: string;
let restoreEnv: (() => void) | undefined;

beforeAll(async () => {
  issuer = await startTestIssuer();
  dataDir = await makeDataDir();
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  restoreEnv = setProcessEnv({
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    OAUTH_ISSUER: issuer.issuer,
    OAUTH_AUDIENCE: `${origin}/mcp`,
    OAUTH_JWKS_URI: issuer.jwksUri,
    APPROVALS_CLIENT_ID: 'notes-console',
    APPROVALS_PUBLIC_URL: origin,
  });
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forTransport('http')],
  }).compile();
  app = moduleRef.createNestApplication({ logger: false });
  await app.listen(port, '127.0.0.1');
});

afterAll(async () => {
  await app?.close();
  await issuer?.close();
  await removeDataDir(dataDir);
  restoreEnv?.();
});

describe('the service with APPROVALS_* set', () => {
  it("serves the console, whose sign-in goes to the API's issuer with PKCE", async () => {
    const response = await fetch(`${origin}/approvals/login`, { redirect: 'manual' });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location')!);
    expect(location.origin).toBe(new URL(issuer.issuer).origin);
    expect(location.searchParams.get('client_id')).toBe('notes-console');
    expect(location.searchParams.get('response_type')).toBe('code');
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('redirect_uri')).toBe(`${origin}/approvals/callback`);
    expect(location.searchParams.get('scope')?.split(' ')).toEqual(
      expect.arrayContaining(['openid', 'mcp:approve']),
    );
  });
});
