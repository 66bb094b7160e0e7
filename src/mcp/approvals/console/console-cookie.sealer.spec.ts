import { ConsoleCookieSealer } from './console-cookie.sealer.js';
import type { McpConsoleSettings } from './console-settings.js';

const SECRET = 'one secret shared by staging and production';

function sealer(overrides: Partial<McpConsoleSettings> = {}): ConsoleCookieSealer {
  return new ConsoleCookieSealer({
    enabled: true,
    path: '/approvals',
    scope: 'mcp:approve',
    issuer: 'https://login.example.com',
    clientId: 'warden-console',
    origin: 'https://warden.example.com',
    scopes: ['openid', 'mcp:approve'],
    sessionTtlMs: 60_000,
    stateSecret: SECRET,
    ...overrides,
  });
}

describe('ConsoleCookieSealer', () => {
  it('opens what it sealed for the same console, and what a twin with the same secret sealed', async () => {
    const sealed = await sealer().seal('session', { sid: 's1' }, 60_000, '/approvals');
    expect(await sealer().open('session', sealed, '/approvals')).toMatchObject({ sid: 's1' });
  });

  it('refuses a cookie sealed under the same secret for another issuer', async () => {
    const staging = sealer({ issuer: 'https://login.staging.example.com' });
    const sealed = await staging.seal('session', { sid: 's1' }, 60_000, '/approvals');
    expect(await sealer().open('session', sealed, '/approvals')).toBeUndefined();
  });

  it('refuses a cookie sealed under the same secret for another origin or another path', async () => {
    const staging = sealer({ origin: 'https://staging.example.com' });
    const elsewhere = await staging.seal('session', { sid: 's1' }, 60_000, '/approvals');
    expect(await sealer().open('session', elsewhere, '/approvals')).toBeUndefined();
    const otherPath = await sealer().seal('session', { sid: 's1' }, 60_000, '/staging/approvals');
    expect(await sealer().open('session', otherPath, '/approvals')).toBeUndefined();
  });

  it('keeps purposes apart: a login cookie never opens as a session', async () => {
    const sealed = await sealer().seal('login', { sid: 's1' }, 60_000, '/approvals');
    expect(await sealer().open('session', sealed, '/approvals')).toBeUndefined();
  });
});
