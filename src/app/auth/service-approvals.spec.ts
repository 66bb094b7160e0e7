import { serviceApprovalsFromEnv } from './service-approvals.js';

const CONSOLE = {
  OAUTH_ISSUER: 'https://login.example.com',
  APPROVALS_CLIENT_ID: 'warden-console',
  APPROVALS_PUBLIC_URL: 'https://notes.example.com',
};

describe('serviceApprovalsFromEnv', () => {
  it('is off when nothing is set', () => {
    expect(serviceApprovalsFromEnv({})).toBeUndefined();
  });

  it('serves the console with the client and the public URL', () => {
    expect(serviceApprovalsFromEnv(CONSOLE)).toEqual({
      console: { oidc: { clientId: 'warden-console', publicUrl: 'https://notes.example.com' } },
    });
  });

  it('takes a client secret and another approver scope', () => {
    const options = serviceApprovalsFromEnv({
      ...CONSOLE,
      APPROVALS_CLIENT_SECRET: 's3cret',
      APPROVALS_SCOPE: 'notes:approve',
    });
    expect(options?.console).toEqual({
      scope: 'notes:approve',
      oidc: {
        clientId: 'warden-console',
        publicUrl: 'https://notes.example.com',
        clientSecret: 's3cret',
      },
    });
  });

  it('adds the webhook, its links on the public URL', () => {
    const options = serviceApprovalsFromEnv({
      APPROVALS_PUBLIC_URL: 'https://notes.example.com',
      APPROVALS_WEBHOOK_URL: 'https://chat.example.com/hooks/1',
      APPROVALS_WEBHOOK_SECRET: 'a-long-enough-secret',
    });
    expect(options).toEqual({
      webhook: {
        url: 'https://chat.example.com/hooks/1',
        secret: 'a-long-enough-secret',
        publicUrl: 'https://notes.example.com',
      },
    });
  });

  it.each([
    [{ APPROVALS_CLIENT_ID: 'c', OAUTH_ISSUER: 'https://i' }, /needs APPROVALS_PUBLIC_URL/],
    [{ APPROVALS_CLIENT_ID: 'c', APPROVALS_PUBLIC_URL: 'https://p' }, /needs OAUTH_ISSUER/],
    [{ APPROVALS_PUBLIC_URL: 'https://p' }, /needs APPROVALS_CLIENT_ID or APPROVALS_WEBHOOK_URL/],
    [{ ...CONSOLE, APPROVALS_WEBHOOK_URL: 'https://h' }, /must be set together/],
    [
      { APPROVALS_WEBHOOK_URL: 'https://h', APPROVALS_WEBHOOK_SECRET: 's' },
      /needs APPROVALS_PUBLIC_URL/,
    ],
  ])('refuses a half-set configuration: %j', (env, problem) => {
    expect(() => serviceApprovalsFromEnv(env)).toThrow(problem);
  });
});
