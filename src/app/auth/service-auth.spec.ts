import { serviceAuthFromEnv, serviceHostsFromEnv, serviceLimitsFromEnv } from './service-auth.js';

describe('the service settings from the environment', () => {
  it('turns bearer auth on with issuer and audience together, and refuses half a setting', () => {
    expect(serviceAuthFromEnv({})).toBeUndefined();
    expect(
      serviceAuthFromEnv({
        OAUTH_ISSUER: 'https://id.example',
        OAUTH_AUDIENCE: 'https://n.example/mcp',
      }),
    ).toEqual({ issuer: 'https://id.example', audience: 'https://n.example/mcp' });
    expect(() => serviceAuthFromEnv({ OAUTH_ISSUER: 'https://id.example' })).toThrow(/together/);
  });

  it('answers to the audience host and the listed hosts and origins', () => {
    expect(
      serviceHostsFromEnv({
        OAUTH_AUDIENCE: 'https://notes.example.com/mcp',
        ALLOWED_HOSTS: 'notes.internal:8080, ',
        ALLOWED_ORIGINS: 'https://app.example.com',
      }),
    ).toEqual({
      allowedHosts: ['notes.internal:8080', 'notes.example.com'],
      allowedOrigins: ['https://app.example.com'],
    });
  });

  it('raises the per-caller budget only with a positive number', () => {
    expect(serviceLimitsFromEnv({ CALLS_PER_SECOND_PER_PRINCIPAL: '5000' })).toEqual({
      callsPerSecondPerPrincipal: 5000,
    });
    expect(serviceLimitsFromEnv({ CALLS_PER_SECOND_PER_PRINCIPAL: 'lots' })).toEqual({});
  });
});
