import { Authorizers } from '../../src/index.js';
import { HTTP_VARIANTS, httpBootOutcome } from '../support/http-app.js';
import { setProcessEnv } from '../support/process-env.js';

/*
 * The guard is armed in every environment: NODE_ENV plays no part (jest sets it to test, and
 * deployments leave it unset or at development by mistake). Only requireAuthorization: false
 * disarms it.
 */
describe.each([undefined, 'production', 'development', 'test'])(
  'the network boot guard by default, NODE_ENV %s',
  (nodeEnv) => {
    let restore: () => void;
    beforeEach(() => (restore = setProcessEnv({ NODE_ENV: nodeEnv })));
    afterEach(() => restore());

    it('an HTTP app that omits requireAuthorization and has no seams refuses to boot', async () => {
      const error = await httpBootOutcome({ requireAuthorization: undefined });
      expect(error?.message).toContain('refuses to boot');
      expect(error?.message).toContain('tool authorizer');
      expect(error?.message).toContain('read authorizer');
    });
  },
);

describe.each(HTTP_VARIANTS)('the network boot guard on %s', (adapter) => {
  it('refuses to boot with neither seam configured, naming both', async () => {
    const error = await httpBootOutcome({ requireAuthorization: true }, [], adapter);
    expect(error?.message).toContain('refuses to boot');
    expect(error?.message).toContain('tool authorizer');
    expect(error?.message).toContain('read authorizer');
  });

  it("refuses to boot when the tool authorizer's source is 'default', naming the tool seam", async () => {
    const error = await httpBootOutcome(
      {
        requireAuthorization: true,
        authorizer: Authorizers.denyAll(),
        authorizerSource: 'default',
        readAuthorizer: Authorizers.allowAll(),
      },
      [],
      adapter,
    );
    expect(error?.message).toContain('refuses to boot');
    expect(error?.message).toContain('tool authorizer');
    expect(error?.message).not.toContain('read authorizer');
  });

  it('refuses to boot without a read authorizer, naming the read seam', async () => {
    const error = await httpBootOutcome(
      {
        requireAuthorization: true,
        authorizer: Authorizers.allowAll(),
        authorizerSource: 'configured',
      },
      [],
      adapter,
    );
    expect(error?.message).toContain('refuses to boot');
    expect(error?.message).toContain('read authorizer');
    expect(error?.message).not.toContain('tool authorizer');
  });

  it('boots with both seams configured', async () => {
    expect(
      await httpBootOutcome(
        {
          requireAuthorization: true,
          authorizer: Authorizers.allowAll(),
          authorizerSource: 'configured',
          readAuthorizer: Authorizers.allowAll(),
        },
        [],
        adapter,
      ),
    ).toBeUndefined();
  });

  it('boots with no seams when requireAuthorization is false', async () => {
    expect(await httpBootOutcome({ requireAuthorization: false }, [], adapter)).toBeUndefined();
  });
});
