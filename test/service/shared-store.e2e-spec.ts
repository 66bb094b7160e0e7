import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestSchema, type TestSchema } from '../support/postgres-schema.js';
import { describeWithService, findService, TEST_DATABASE_URL } from '../support/services.js';
import { MAIN_STDIO, StdioScript, makeDataDir, removeDataDir } from '../support/stdio-child.js';

type Message = Record<string, any>;

/*
 * Several processes of the notes service on one store: the JSON store let the
 * last writer's file win, so notes another process had acknowledged vanished.
 */

/*
 * A service that dies, starting or answering, fails the test at once with its last words
 * (`whileRunning`): two of them start on one store at once, and a start that lost a race for it
 * would otherwise leave `initialize` waiting until the timeout.
 */
function spawned(env: Record<string, string>, cwd?: string): StdioScript {
  return new StdioScript(MAIN_STDIO, { DATA_DIR: '', DATABASE_URL: '', ...env }, { cwd });
}

async function started(child: StdioScript): Promise<StdioScript> {
  await child.whileRunning(child.initialize({}));
  return child;
}

const service = (env: Record<string, string>, cwd?: string) => started(spawned(env, cwd));

function answer(child: StdioScript, method: string, params: object): Promise<Message> {
  return child.whileRunning(child.request(method, params));
}

async function call(child: StdioScript, name: string, args: object): Promise<Message> {
  const reply = await answer(child, 'tools/call', { name, arguments: args });
  expect(reply.error).toBeUndefined();
  expect(reply.result.isError).toBeUndefined();
  return reply.result.structuredContent as Message;
}

async function read(child: StdioScript, uri: string): Promise<string> {
  const reply = await answer(child, 'resources/read', { uri });
  return reply.result.contents[0].text as string;
}

/** Two processes on the store `env` names write at once; each sees all the other wrote. */
function twoProcesses(env: () => Record<string, string>): void {
  const children: StdioScript[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) await child.dispose();
  });

  it('concurrent writes from two processes: no acknowledged note lost, every tag kept', async () => {
    // Both are disposed after the test, whichever fails to start.
    const [a, b] = [spawned(env()), spawned(env())];
    children.push(a, b);
    await Promise.all([started(a), started(b)]);
    const shared = await call(a, 'create_note', { title: 'shared', body: 'both tag it' });
    const writes = [a, b].flatMap((child, c) =>
      Array.from({ length: 20 }, (_, i) => [
        call(child, 'create_note', { title: `p${c}-${i}`, body: 'b' }),
        call(child, 'tag_note', { id: shared.id, tag: `p${c}-tag${i}` }),
      ]).flat(),
    );
    const results = await Promise.all(writes);
    const created = results.filter((note) => note.title !== 'shared').map((note) => note.id);
    expect(created).toHaveLength(40);

    for (const child of [a, b]) {
      const index = JSON.parse(await read(child, 'notes://index')) as Message[];
      expect(index.map((entry) => entry.id).sort()).toEqual([shared.id, ...created].sort());
      const tags = index.find((entry) => entry.id === shared.id)!.tags as string[];
      expect(tags).toHaveLength(40);
      expect(new Set(tags).size).toBe(40);
    }
    // A note one process wrote is readable, completable and searchable in the other at once.
    const mine = await call(a, 'create_note', { title: 'from a', body: 'written by a' });
    expect(await read(b, `notes://${mine.id}`)).toContain('written by a');
    const completion = await answer(b, 'completion/complete', {
      ref: { type: 'ref/resource', uri: 'notes://{id}' },
      argument: { name: 'id', value: mine.id.slice(0, 6) },
    });
    expect(completion.result.completion.values).toContain(mine.id);
    expect((await call(b, 'search_notes', { query: 'WRITTEN BY A' })).count).toBe(1);
  });
}

describe('the notes service: two processes on one SQLite file', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await makeDataDir();
  });
  afterEach(() => removeDataDir(dataDir));
  twoProcesses(() => ({ DATA_DIR: dataDir }));
});

describeWithService(
  await findService(TEST_DATABASE_URL),
  'the notes service: two processes on one PostgreSQL',
  (url) => {
    let schema: TestSchema;
    let dataDir: string;
    beforeEach(async () => {
      schema = await createTestSchema(url);
      dataDir = await makeDataDir();
    });
    afterEach(async () => {
      await schema.drop();
      await removeDataDir(dataDir);
    });
    twoProcesses(() => ({ DATA_DIR: dataDir, DATABASE_URL: schema.url }));

    it('says on stderr which database holds the notes, without the password', async () => {
      const withPassword = new URL(schema.url);
      withPassword.password = 'never-printed'; // trust auth ignores it
      const child = await service({ DATA_DIR: dataDir, DATABASE_URL: withPassword.toString() });
      try {
        const { host, pathname } = new URL(url);
        await child.stderr.waitFor((text) =>
          text.includes(`mcp-warden: notes in postgres ${host}${pathname}\n`),
        );
        expect(child.stderr.text).not.toContain('never-printed');
      } finally {
        await child.dispose();
      }
    });
  },
);

describe('the notes service: where the notes live by default', () => {
  let home: string;
  let elsewhere: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'warden-home-'));
    elsewhere = mkdtempSync(join(tmpdir(), 'warden-cwd-'));
  });
  afterEach(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  });

  it('in the per-user data directory, whatever the cwd, and it says so on stderr', async () => {
    const xdg = join(home, 'xdg-data');
    const env = { HOME: home, XDG_DATA_HOME: xdg };
    const file = join(xdg, 'mcp-warden', 'notes.sqlite');
    const first = await service(env, elsewhere);
    let id: string;
    try {
      await first.stderr.waitFor((text) => text.includes(`mcp-warden: notes in sqlite ${file}\n`));
      id = (await call(first, 'create_note', { title: 'kept', body: 'b' })).id as string;
    } finally {
      await first.dispose();
    }
    expect(existsSync(file)).toBe(true);
    expect(existsSync(join(elsewhere, 'data'))).toBe(false);

    // Launched from another directory, the service finds the same notes.
    const second = await service(env, home);
    try {
      expect(await read(second, `notes://${id}`)).toContain('kept');
    } finally {
      await second.dispose();
    }
  });
});
