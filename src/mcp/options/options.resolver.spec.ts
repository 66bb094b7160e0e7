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
