import { withFields } from './with-fields.js';

describe('withFields', () => {
  it('copies the base with the fields added or replaced, in the order a spread gives', () => {
    const base = Object.freeze({ kind: 'allow', purpose: 'call' });
    const copy = withFields(base, { purpose: 'visibility', trace: 1 });
    expect(copy).toEqual({ kind: 'allow', purpose: 'visibility', trace: 1 });
    expect(Object.keys(copy)).toEqual(Object.keys({ ...base, purpose: 'visibility', trace: 1 }));
    expect(base).toEqual({ kind: 'allow', purpose: 'call' });
    expect(copy).not.toBe(base);
  });
});
