import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSource, watchedPaths } from './policy-sources.js';

describe('policy sources', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'policy-sources-'));
    writeFileSync(join(dir, 'b.cedar'), 'b');
    writeFileSync(join(dir, 'a.cedar'), 'a');
    writeFileSync(join(dir, 'notes.txt'), 'not cedar');
    mkdirSync(join(dir, 'extra'));
    writeFileSync(join(dir, 'extra', 'extra.cedar'), 'extra');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a folder in name order, and a list of sources in order as one set', async () => {
    expect(await readSource({ dir })).toEqual([
      { name: 'a.cedar', text: 'a' },
      { name: 'b.cedar', text: 'b' },
    ]);
    const extra = join(dir, 'extra', 'extra.cedar');
    expect(await readSource([{ dir }, { file: extra }, { text: 'inline' }], 'policies')).toEqual([
      { name: 'a.cedar', text: 'a' },
      { name: 'b.cedar', text: 'b' },
      { name: 'extra.cedar', text: 'extra' },
      { name: 'policies', text: 'inline' },
    ]);
  });

  it('watches every file and folder among the sources, never inline text', () => {
    const extra = join(dir, 'extra', 'extra.cedar');
    expect(watchedPaths([{ dir }, { file: extra }, { text: 'x' }])).toEqual([dir, extra]);
    expect(watchedPaths({ text: 'x' })).toEqual([]);
    expect(watchedPaths(undefined)).toEqual([]);
  });
});
