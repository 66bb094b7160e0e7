import { bearerChallenge } from './www-authenticate.js';

describe('bearerChallenge', () => {
  it('quotes parameters, escapes quotes and backslashes, and leaves absent ones out', () => {
    expect(
      bearerChallenge({
        error: 'insufficient_scope',
        scope: 'a b',
        resource_metadata: 'x"\\y',
        foo: undefined,
      }),
    ).toBe('Bearer error="insufficient_scope", scope="a b", resource_metadata="x\\"\\\\y"');
    expect(bearerChallenge({})).toBe('Bearer');
  });
});
