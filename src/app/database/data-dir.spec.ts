import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultDataDir } from './data-dir.js';
import { describeNotesDatabase, notesDatabaseFromEnv } from './notes-database.options.js';

describe('defaultDataDir', () => {
  it('follows XDG on Linux: $XDG_DATA_HOME, else ~/.local/share', () => {
    expect(defaultDataDir({ XDG_DATA_HOME: '/xdg' }, 'linux', '/home/u')).toBe('/xdg/mcp-warden');
    expect(defaultDataDir({}, 'linux', '/home/u')).toBe('/home/u/.local/share/mcp-warden');
    // A relative XDG_DATA_HOME is invalid by the spec (it would depend on the cwd again).
    expect(defaultDataDir({ XDG_DATA_HOME: 'rel' }, 'linux', '/home/u')).toBe(
      '/home/u/.local/share/mcp-warden',
    );
    expect(defaultDataDir({}, 'freebsd', '/home/u')).toBe('/home/u/.local/share/mcp-warden');
  });

  it('uses Application Support on macOS and %APPDATA% on Windows', () => {
    expect(defaultDataDir({ XDG_DATA_HOME: '/xdg' }, 'darwin', '/Users/u')).toBe(
      '/Users/u/Library/Application Support/mcp-warden',
    );
    expect(
      defaultDataDir({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32', 'C:\\Users\\u'),
    ).toBe('C:\\Users\\u\\AppData\\Roaming\\mcp-warden');
    expect(defaultDataDir({}, 'win32', 'C:\\Users\\u')).toBe(
      'C:\\Users\\u\\AppData\\Roaming\\mcp-warden',
    );
  });

  it('does not depend on the current directory', () => {
    const before = defaultDataDir({}, 'linux', '/home/u');
    const elsewhere = mkdtempSync(join(tmpdir(), 'cwd-'));
    const cwd = process.cwd();
    try {
      process.chdir(elsewhere);
      expect(defaultDataDir({}, 'linux', '/home/u')).toBe(before);
      expect(defaultDataDir()).not.toContain(elsewhere);
    } finally {
      process.chdir(cwd);
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('notesDatabaseFromEnv', () => {
  it('is SQLite under DATA_DIR, or under the per-user directory without it', () => {
    expect(notesDatabaseFromEnv({ DATA_DIR: '/srv/notes' })).toEqual({
      kind: 'sqlite',
      dataDir: '/srv/notes',
    });
    expect(notesDatabaseFromEnv({ HOME: '/home/u', XDG_DATA_HOME: '/xdg' })).toEqual({
      kind: 'sqlite',
      dataDir:
        process.platform === 'linux'
          ? '/xdg/mcp-warden'
          : defaultDataDir({ XDG_DATA_HOME: '/xdg' }),
    });
  });

  it('is PostgreSQL with DATABASE_URL, shown without its password', () => {
    const options = notesDatabaseFromEnv({
      DATA_DIR: '/srv/notes',
      DATABASE_URL: 'postgres://app:s3cret@db.internal:5432/notes?sslmode=require',
    });
    expect(options).toMatchObject({ kind: 'postgres', dataDir: '/srv/notes' });
    expect(describeNotesDatabase(options)).toBe('postgres db.internal:5432/notes');
    expect(describeNotesDatabase({ kind: 'postgres', url: 'not a url', dataDir: '/d' })).toBe(
      'postgres (unparsable DATABASE_URL)',
    );
    expect(describeNotesDatabase({ kind: 'sqlite', dataDir: '/srv/notes' })).toBe(
      `sqlite ${join('/srv/notes', 'notes.sqlite')}`,
    );
  });
});
