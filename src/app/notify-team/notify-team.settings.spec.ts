import { notifyTeamFromEnv } from './notify-team.settings.js';

const ON = {
  NOTIFY_TEAM_URL: 'https://team.example/api/notices',
  TOKEN_EXCHANGE_CLIENT_ID: 'notes-service',
  TOKEN_EXCHANGE_CLIENT_SECRET: 'secret',
  OAUTH_ISSUER: 'https://issuer.example',
};

describe('notifyTeamFromEnv', () => {
  it('is off without NOTIFY_TEAM_URL', () => {
    expect(notifyTeamFromEnv({})).toBeUndefined();
    expect(notifyTeamFromEnv({ NOTIFY_TEAM_URL: ' ' })).toBeUndefined();
  });

  it("defaults the audience to the URL's origin, and takes the one given", () => {
    expect(notifyTeamFromEnv(ON)).toEqual({
      url: ON.NOTIFY_TEAM_URL,
      audience: 'https://team.example',
      clientId: 'notes-service',
      clientSecret: 'secret',
    });
    expect(
      notifyTeamFromEnv({
        ...ON,
        NOTIFY_TEAM_AUDIENCE: 'urn:team',
        NOTIFY_TEAM_SCOPE: 'team:notify',
      }),
    ).toMatchObject({ audience: 'urn:team', scope: 'team:notify' });
  });

  it.each([
    ['a URL that is not absolute', { NOTIFY_TEAM_URL: '/notices' }, /absolute URL/],
    ['no client', { TOKEN_EXCHANGE_CLIENT_SECRET: '' }, /TOKEN_EXCHANGE_CLIENT_ID/],
    ['no bearer auth', { OAUTH_ISSUER: '' }, /needs bearer auth/],
  ])('refuses %s at boot', (_case, change, message) => {
    expect(() => notifyTeamFromEnv({ ...ON, ...change })).toThrow(message);
  });
});
