import { resolveMcpOptions } from '../../options/options.resolver.js';
import type { McpModuleOptions } from '../../options/mcp-options.interface.js';
import { consoleSettingsOf } from './console-settings.js';

const withConsole = (extra: Partial<McpModuleOptions> = {}) =>
  resolveMcpOptions({
    name: 't',
    version: '1',
    transport: 'http',
    http: { auth: { issuer: 'https://login.example.com', audience: 'https://w.example.com/mcp' } },
    approvals: {
      console: { oidc: { clientId: 'warden-console', publicUrl: 'https://w.example.com' } },
    },
    ...extra,
  });

describe('consoleSettingsOf: the sealing secret', () => {
  it('refuses a stateSecret under 16 characters when the console is served', () => {
    expect(() => consoleSettingsOf(withConsole({ stateSecret: 'fifteen chars!!' }))).toThrow(
      'stateSecret must be at least 16 characters',
    );
  });

  it('accepts 16 characters, or no secret at all (a random key per process)', () => {
    expect(consoleSettingsOf(withConsole({ stateSecret: 'sixteen chars!!!' })).enabled).toBe(true);
    expect(consoleSettingsOf(withConsole()).stateSecret).toBeUndefined();
  });

  it('leaves a short secret to the rest of the app when there is no console', () => {
    const options = resolveMcpOptions({ name: 't', version: '1', stateSecret: 'short' });
    expect(consoleSettingsOf(options).enabled).toBe(false);
  });
});
