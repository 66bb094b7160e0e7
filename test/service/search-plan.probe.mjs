// Run on Node 24 by search-plan.e2e-spec.ts: the built notes store on node:sqlite, with SQLite's
// authorizer (called while SQLite compiles a statement, never while it runs one) counting how
// often a statement is compiled. Prints one JSON object on stdout.
//
//   node search-plan.probe.mjs <dist folder> <data folder>
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, dataDir] = process.argv.slice(2);
const { DatabaseSync, constants } = process.getBuiltinModule('node:sqlite');

let compiles = 0;
const prepare = DatabaseSync.prototype.prepare;
const probed = new WeakSet();
DatabaseSync.prototype.prepare = function (sql) {
  if (!probed.has(this)) {
    probed.add(this);
    this.setAuthorizer(() => {
      compiles++;
      return constants.SQLITE_OK;
    });
  }
  return prepare.call(this, sql);
};

const { NotesStore } = await import(pathToFileURL(join(dist, 'app/notes/notes.store.js')).href);
const store = new NotesStore({ kind: 'sqlite', dataDir, announce: false });
await store.onModuleInit();
try {
  await store.create('Alpha plan', 'first', ['x']);
  await store.create('beta', 'second', ['alpha']);
  await store.create('gamma', 'third', []);
  const titles = (notes) => notes.map((note) => note.title);

  // Each statement is compiled on its first run: a search, a page, and the tags of each number
  // of notes found (one `in (...)` list per count). The second pass runs the same statements
  // with other bindings (the same searches in other letter cases, so as many notes are found).
  const pass = async (letters) => {
    const searches = [];
    for (const [query, limit] of [
      ['alp', 1],
      ['alpha', 2],
      ['a', 3],
      ['50%_', 4],
      ['gamma', 5],
    ]) {
      searches.push(titles(await store.search(letters(query), limit)));
    }
    const pages = [
      titles((await store.pageAfter(0, 10, 1)).notes),
      titles((await store.pageAfter(1, 10, 3)).notes),
    ];
    return { searches, pages };
  };
  const first = await pass((query) => query);
  const before = compiles;
  const second = await pass((query) => query.toUpperCase());
  const storeCompiles = compiles - before;

  // The control: the same kind of statement with a bare bound LIKE pattern and LIMIT, which
  // SQLite compiles again after new bindings. It shows the probe sees a recompilation.
  const control = new DatabaseSync(join(dataDir, 'notes.sqlite'));
  const bare = control.prepare('select id from notes where title_lc like ? limit ?');
  bare.all('%a%', 1);
  const controlBefore = compiles;
  bare.all('%b%', 2);
  const controlCompiles = compiles - controlBefore;
  control.close();

  process.stdout.write(JSON.stringify({ first, second, storeCompiles, controlCompiles }));
} finally {
  await store.onApplicationShutdown();
}
