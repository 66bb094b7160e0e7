import { resourceHintsOf } from './resource-annotations.js';

const fail = (problem: string) => new Error(problem);

describe('resourceHintsOf', () => {
  it('keeps valid annotations and size, as copies', () => {
    const audience: ('user' | 'assistant')[] = ['user'];
    const hints = resourceHintsOf(
      { annotations: { audience, priority: 0, lastModified: '2025-01-12T15:00:58Z' }, size: 0 },
      fail,
    );
    audience.push('assistant');
    expect(hints).toEqual({
      annotations: { audience: ['user'], priority: 0, lastModified: '2025-01-12T15:00:58Z' },
      size: 0,
    });
    expect(resourceHintsOf({}, fail)).toEqual({});
  });

  it.each([
    [{ annotations: { audience: ['everyone'] } }, /^annotations\.audience\.0:/],
    [{ annotations: { priority: -0.1 } }, /^annotations\.priority:/],
    [{ annotations: { lastModified: '12/01/2025' } }, /^annotations\.lastModified:/],
    [{ size: -1 }, /size must be a whole number/],
    [{ size: Number.NaN }, /size must be a whole number/],
  ])('refuses %j', (def, problem) => {
    expect(() => resourceHintsOf(def as never, fail)).toThrow(problem);
  });
});
