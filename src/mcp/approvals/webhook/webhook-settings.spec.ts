import { resolveMcpOptions } from '../../options/options.resolver.js';
import type { McpApprovalsOptions } from '../operator/approvals-options.interface.js';
import { webhookSettingsOf } from './webhook-settings.js';

const settingsOf = (approvals: McpApprovalsOptions) =>
  webhookSettingsOf(resolveMcpOptions({ name: 'x', version: '1', approvals }));

const webhook = {
  url: 'https://hooks.example.com/x',
  secret: 'sixteen chars ok',
  publicUrl: 'https://warden.example.com',
};

describe('webhook settings', () => {
  it('are absent without approvals.webhook', () => {
    expect(settingsOf({})).toBeNull();
  });

  it('apply the defaults: 10 minute links under /approvals/link, scope mcp:approve', () => {
    expect(settingsOf({ webhook })).toEqual(
      expect.objectContaining({
        linkTtlMs: 600_000,
        linkPath: '/approvals/link',
        scope: 'mcp:approve',
      }),
    );
  });

  it('follow the console path and scope, and its public URL when the webhook has none', () => {
    const settings = settingsOf({
      webhook: { ...webhook, publicUrl: undefined },
      console: {
        path: '/ops/',
        scope: 'ops:approve',
        oidc: { clientId: 'c', publicUrl: 'https://console.example.com' },
      },
    });
    expect(settings?.linkPath).toBe('/ops/link');
    expect(settings?.scope).toBe('ops:approve');
    expect(settings?.publicUrl.href).toBe('https://console.example.com/');
  });

  it('refuse to boot on a short secret, no public URL, or a URL that is not http(s)', () => {
    expect(() => settingsOf({ webhook: { ...webhook, secret: 'short' } })).toThrow(/secret/);
    expect(() => settingsOf({ webhook: { ...webhook, publicUrl: undefined } })).toThrow(
      /publicUrl/,
    );
    expect(() => settingsOf({ webhook: { ...webhook, url: 'file:///etc/passwd' } })).toThrow(/url/);
  });
});
