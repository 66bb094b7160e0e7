import { setProcessEnv } from '../../../test/support/process-env.js';
import { resolveMcpOptions } from './options.resolver.js';

const BASE = { name: 's', version: '1' };

describe('resolveMcpOptions: requireAuthorization', () => {
  let restore: (() => void) | undefined;
  afterEach(() => restore?.());

  it.each([undefined, 'production', 'development', 'test'])(
    'is armed when omitted, with NODE_ENV %s',
    (nodeEnv) => {
      restore = setProcessEnv({ NODE_ENV: nodeEnv });
      expect(resolveMcpOptions(BASE).requireAuthorization).toBe(true);
      expect(
        resolveMcpOptions({ ...BASE, requireAuthorization: undefined }).requireAuthorization,
      ).toBe(true);
    },
  );

  it('is disarmed only by false, and true stays true', () => {
    expect(resolveMcpOptions({ ...BASE, requireAuthorization: false }).requireAuthorization).toBe(
      false,
    );
    expect(resolveMcpOptions({ ...BASE, requireAuthorization: true }).requireAuthorization).toBe(
      true,
    );
  });
});

describe('resolveMcpOptions: cluster keys and the SSE pair', () => {
  const cluster = { redisUrl: 'redis://127.0.0.1:6379' };

  it('keeps mcp-warden: for a lone server, and gives each of several its own prefix', () => {
    expect(resolveMcpOptions({ ...BASE, cluster }).cluster?.keyPrefix).toBe('mcp-warden:');
    expect(
      resolveMcpOptions({ ...BASE, name: 'admin', cluster }, { several: true }).cluster?.keyPrefix,
    ).toBe('mcp-warden:admin:');
    const given = { ...cluster, keyPrefix: 'ops:' };
    expect(
      resolveMcpOptions({ ...BASE, cluster: given }, { several: true }).cluster?.keyPrefix,
    ).toBe('ops:');
  });

  it.each([
    [undefined, ''],
    ['/', ''],
    ['admin', '/admin'],
    ['/admin/', '/admin'],
  ])('ssePairPath %s is served under %j', (ssePairPath, expected) => {
    expect(resolveMcpOptions({ ...BASE, http: { ssePairPath } }).http.ssePairPath).toBe(expected);
  });
});
