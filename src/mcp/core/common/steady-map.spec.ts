import { SteadyMap } from './steady-map.js';

describe('SteadyMap', () => {
  it('counts and lists only what was set, in order', () => {
    const map = new SteadyMap<string, number>();
    expect(map.size).toBe(0);
    expect([...map.values()]).toEqual([]);
    map.set('a', 1).set('b', 2);
    expect(map.size).toBe(2);
    expect([...map.values()]).toEqual([1, 2]);
  });

  it('has, gets and deletes like a Map, down to empty and back', () => {
    const map = new SteadyMap<number, string>();
    for (let round = 0; round < 3; round++) {
      map.set(round, 'x');
      expect(map.has(round)).toBe(true);
      expect(map.get(round)).toBe('x');
      expect(map.delete(round)).toBe(true);
      expect(map.delete(round)).toBe(false);
      expect(map.has(round)).toBe(false);
      expect(map.get(round)).toBeUndefined();
      expect(map.size).toBe(0);
      expect([...map.values()]).toEqual([]);
    }
  });

  it('a value of undefined is still an entry', () => {
    const map = new SteadyMap<string, undefined>();
    map.set('u', undefined);
    expect(map.has('u')).toBe(true);
    expect(map.size).toBe(1);
    expect([...map.values()]).toEqual([undefined]);
  });

  it('clear empties it, and it fills again', () => {
    const map = new SteadyMap<string, number>();
    map.set('a', 1).set('b', 2);
    map.clear();
    expect(map.size).toBe(0);
    expect([...map.values()]).toEqual([]);
    map.set('c', 3);
    expect(map.size).toBe(1);
    expect([...map.values()]).toEqual([3]);
  });

  it('no key a caller passes finds the kept entry', () => {
    const map = new SteadyMap<unknown, number>();
    for (const key of [undefined, null, Symbol('kept entry'), 'kept entry', 0, NaN]) {
      expect(map.has(key)).toBe(false);
      expect(map.delete(key)).toBe(false);
    }
    expect(map.size).toBe(0);
  });
});
