import { resolveMcpOptions } from './options.resolver.js';

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
      expect(resolveMcpOptions({}).requireAuthorization).toBe(true);
      expect(resolveMcpOptions({ requireAuthorization: undefined }).requireAuthorization).toBe(
        true,
      );
    },
  );

  it('is disarmed only by false, and true stays true', () => {
    expect(resolveMcpOptions({ requireAuthorization: false }).requireAuthorization).toBe(false);
    expect(resolveMcpOptions({ requireAuthorization: true }).requireAuthorization).toBe(true);
  });
});
