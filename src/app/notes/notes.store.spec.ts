import { jest } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NotesStore } from './notes.store.js';

/* The JSON store's durability: flushed writes, no poisoned queue, no orphans. */

describe('NotesStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'notes-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function started(): Promise<NotesStore> {
    const store = new NotesStore(dir);
    await store.onModuleInit();
    return store;
  }

  it('removes temporary files a dead process left behind, and keeps a live one', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(join(dir, `notes.json.${dead}.tmp`), '[half');
    writeFileSync(join(dir, `notes.json.${process.ppid}.tmp`), '[in progress');
    await started();
    expect(existsSync(join(dir, `notes.json.${dead}.tmp`))).toBe(false);
    expect(existsSync(join(dir, `notes.json.${process.ppid}.tmp`))).toBe(true);
  });

  it('flushes the file and its directory to disk before and after the rename', async () => {
    const probe = await open(join(dir, 'probe'), 'w');
    const sync = jest.spyOn(Object.getPrototypeOf(probe) as { sync: () => Promise<void> }, 'sync');
    await probe.close();
    const store = await started();
    await store.create('t', 'b', []);
    expect(sync).toHaveBeenCalledTimes(2);
    sync.mockRestore();
    expect(JSON.parse(readFileSync(join(dir, 'notes.json'), 'utf8'))).toHaveLength(1);
  });

  it('one failed write fails only its own call: the next write succeeds', async () => {
    const store = await started();
    // A directory where the temporary file must go makes exactly this write fail.
    const blocker = join(dir, `notes.json.${process.pid}.tmp`);
    mkdirSync(blocker);
    await expect(store.create('first', 'b', [])).rejects.toThrow();
    rmSync(blocker, { recursive: true });
    await expect(store.create('second', 'b', [])).resolves.toMatchObject({ title: 'second' });
    const saved = JSON.parse(readFileSync(join(dir, 'notes.json'), 'utf8')) as { title: string }[];
    expect(saved.map((note) => note.title)).toContain('second');
  });
});
