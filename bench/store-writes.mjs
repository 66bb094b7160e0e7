// Does a write cost more as the notes store grows? Times 100 create() and 100 addTag() calls on a
// store of 100 notes and on one of 20,000 (seeded in one transaction through the notes.json
// import), and the event loop's longest stall while they run. The JSON store this replaced
// re-serialised every note on each write, so its cost grew with the store; here the ratio of the
// two sizes should stay near 1.
//
//   npm run build && node bench/store-writes.mjs [--sizes 100,20000] [--writes 100] [--runs 3] [--postgres URL]
//
// Without --postgres it measures SQLite (in a temp dir); with it, PostgreSQL (in a schema of its
// own, dropped after). The sizes are interleaved over the runs, and each cell is the median run
// (the machine's other work moves single runs by a factor of two or more).
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { NotesStore } from '../dist/app/notes/notes.store.js';
import { sqliteDriverName } from '../dist/app/database/sqlite.connection.js';

const { values: flags } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100,20000' },
    writes: { type: 'string', default: '100' },
    postgres: { type: 'string' },
    runs: { type: 'string', default: '3' },
  },
});
const sizes = flags.sizes.split(',').map(Number);
const writes = Number(flags.writes);

/** A schema of its own on the server, and the URL that puts it on the search_path. */
async function postgresSchema(baseUrl) {
  const name = `warden_bench_${randomBytes(4).toString('hex')}`;
  const run = async (text) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await run(`create schema ${name}`);
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${name}`);
  return { url: url.toString(), drop: () => run(`drop schema ${name} cascade`) };
}

function seed(dataDir, count) {
  const notes = Array.from({ length: count }, (_, i) => ({
    id: `seed${i}`,
    title: `Seeded note ${i}`,
    body: 'A body of some length. '.repeat(20),
    tags: ['seed', `t${i % 10}`],
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  }));
  writeFileSync(join(dataDir, 'notes.json'), JSON.stringify(notes));
}

async function measure(size) {
  const dataDir = mkdtempSync(join(tmpdir(), 'store-writes-'));
  const schema = flags.postgres ? await postgresSchema(flags.postgres) : undefined;
  const options = schema
    ? { kind: 'postgres', url: schema.url, dataDir, announce: false }
    : { kind: 'sqlite', dataDir, announce: false };
  seed(dataDir, size);
  const store = new NotesStore(options);
  try {
    await store.onModuleInit();
    if ((await store.list()).length !== size) throw new Error(`seeding ${size} notes failed`);
    for (let i = 0; i < 10; i++) await store.create('warm-up', 'b', []); // first-use costs
    const stall = monitorEventLoopDelay({ resolution: 1 });
    stall.enable();
    // Each write is timed alone and then yields to the event loop, as separate calls would (SQLite's
    // driver is synchronous: without the yield the loop's delay monitor never gets to look).
    let createNs = 0n;
    let addTagNs = 0n;
    for (let i = 0; i < writes; i++) {
      const start = process.hrtime.bigint();
      await store.create(`bench ${i}`, 'body', ['x']);
      createNs += process.hrtime.bigint() - start;
      await new Promise(setImmediate);
    }
    for (let i = 0; i < writes; i++) {
      const start = process.hrtime.bigint();
      await store.addTag(`seed${i % size}`, `bench-${i}`);
      addTagNs += process.hrtime.bigint() - start;
      await new Promise(setImmediate);
    }
    stall.disable();
    return {
      size,
      createMs: Number(createNs) / 1e6 / writes,
      addTagMs: Number(addTagNs) / 1e6 / writes,
      maxStallMs: stall.max / 1e6,
    };
  } finally {
    await store.onModuleDestroy();
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const samples = new Map(sizes.map((size) => [size, []]));
for (let run = 0; run < Number(flags.runs); run++) {
  for (const size of sizes) samples.get(size).push(await measure(size));
}
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rows = sizes.map((size) => {
  const runs = samples.get(size);
  return {
    size,
    createMs: median(runs.map((r) => r.createMs)),
    addTagMs: median(runs.map((r) => r.addTagMs)),
    maxStallMs: median(runs.map((r) => r.maxStallMs)),
  };
});
const backend = flags.postgres ? 'PostgreSQL' : `SQLite (${sqliteDriverName()})`;
console.log(
  `notes store writes, ${backend}, Node ${process.version}, ${writes} of each per size, median of ${flags.runs} runs\n`,
);
console.log(
  '| notes in the store | create, ms/write | addTag, ms/write | longest event-loop stall, ms |',
);
console.log(
  '| -----------------: | ---------------: | ---------------: | ---------------------------: |',
);
for (const row of rows) {
  const cells = [
    row.size,
    row.createMs.toFixed(3),
    row.addTagMs.toFixed(3),
    row.maxStallMs.toFixed(1),
  ];
  console.log(`| ${cells.join(' | ')} |`);
}
const [first, last] = [rows[0], rows.at(-1)];
console.log(
  `\n${last.size} vs ${first.size} notes: create ×${(last.createMs / first.createMs).toFixed(2)}, ` +
    `addTag ×${(last.addTagMs / first.addTagMs).toFixed(2)}`,
);
