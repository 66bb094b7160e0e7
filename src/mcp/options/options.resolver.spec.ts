import { resolveMcpOptions } from './options.resolver.js';

const BASE = { name: 's', version: '1' };

describe('resolveMcpOptions: requireAuthorization', () => {
  const saved = process.env.NODE_ENV;
  afterEach(() => {
    if (saved === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = saved;
  });

  it.each([undefined, 'production', 'development', 'test'])(
    'is armed when omitted, with NODE_ENV %s',
    (nodeEnv) => {
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
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
