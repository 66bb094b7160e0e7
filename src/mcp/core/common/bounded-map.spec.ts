import { setBounded } from './bounded-map.js';

describe('setBounded', () => {
  it('drops the oldest entry once the map holds its bound', () => {
    const map = new Map<string, number>();
    for (const [i, key] of ['a', 'b', 'c', 'd'].entries()) setBounded(map, key, i, 3);
    expect([...map]).toEqual([
      ['b', 1],
      ['c', 2],
      ['d', 3],
    ]);
  });

  it('moves a key set again to the newest place, evicting nothing', () => {
    const map = new Map([
      ['a', 0],
      ['b', 1],
      ['c', 2],
    ]);
    setBounded(map, 'a', 9, 3);
    expect([...map]).toEqual([
      ['b', 1],
      ['c', 2],
      ['a', 9],
    ]);
  });
});
