// Instructions per tools/call, counted by valgrind's callgrind: a figure that does not move with
// whatever else the machine runs, for comparing two commits where calls/s and CPU time swing by
// a factor of two from one minute to the next (a shared virtual machine).
//
//   node bench/instructions.mjs [--server warden-http|warden-fastify|warden-stdio|service] [--against <git ref>]
//
// The server (bench/servers/<server>.mjs, JSON Schema tools only; `service`: the notes service's
// HTTP entry point, dist/app/main.js, over an empty data directory, called with search_notes as
// the bench's service rows are, its SQLite audit thread counted too) runs under callgrind; the
// driver (this process, not counted) warms it up with 3,000 calls, zeroes the counts, then makes
// N more, 32 in flight over raw keep-alive connections sharing one session (warden-stdio: 32
// pipelined on its pipes), and stops it. Two
// such runs, with N = 2,000 and N = 8,000, differ only by 6,000 calls: the difference of their
// instruction totals over 6,000 is the cost of one call, the shutdown cancelling out.
// Each run repeats --repeat times (default 2) and the median total is taken. With --against, the
// ref is built in a temporary worktree (lib/against.mjs) and measured the same way. A run takes
// a minute or two: valgrind runs a program some 50 times slower.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { prepareAgainst } from './lib/against.mjs';
import { callTool, openSession } from './lib/mcp-http.mjs';
import { echoCall, searchNotesCall } from './lib/mcp.mjs';
import { drive, median } from './lib/measure.mjs';
import { RawHttpConnection } from './lib/raw-http.mjs';
import { StdioClient } from './lib/stdio-client.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const IN_FLIGHT = 32;
const WARM_UP = 3_000;
const [SHORT, LONG] = [2_000, 8_000];
const URL_PATTERN = /http:\/\/(?:127\.0\.0\.1|localhost):\d+\/mcp/;

const { values: flags } = parseArgs({
  options: {
    server: { type: 'string', default: 'warden-http' },
    against: { type: 'string' },
    repeat: { type: 'string', default: '2' },
  },
});
const log = (line) => process.stderr.write(`${line}\n`);
const STDIO = flags.server.endsWith('-stdio');
const SERVICE = flags.server === 'service';

/* The script a checkout runs as the server, and what it needs of its environment. */
function serverOf(repo, dataDir) {
  if (!SERVICE) return { script: join(repo, 'bench/servers', `${flags.server}.mjs`), env: {} };
  return {
    script: join(repo, 'dist/app/main.js'),
    // The bench is one caller: its per-caller quota is raised, as the bench's service rows do.
    env: { DATA_DIR: dataDir, CALLS_PER_SECOND_PER_PRINCIPAL: '1000000000' },
  };
}

/** The instruction total of one server process that served WARM_UP + `calls` calls. */
async function total(repo, calls) {
  const dir = mkdtempSync(join(os.tmpdir(), 'mcp-warden-callgrind-'));
  const dataDir = mkdtempSync(join(os.tmpdir(), 'mcp-warden-callgrind-data-'));
  const server = serverOf(repo, dataDir);
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      // V8 writes its compiled code to the heap: valgrind must notice when it changes.
      '--smc-check=all-non-file',
      `--callgrind-out-file=${join(dir, 'callgrind.out')}`,
      process.execPath,
      server.script,
    ],
    {
      cwd: repo,
      env: {
        ...process.env,
        PORT: '0',
        NODE_ENV: 'production',
        WARDEN_DTO_TOOL: 'off',
        ...server.env,
      },
      // The service prints its address on stderr, with its log.
      stdio: [STDIO ? 'pipe' : 'ignore', 'pipe', SERVICE ? 'pipe' : 'ignore'],
    },
  );
  try {
    await (STDIO ? driveStdio : driveHttp)(child, calls);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  // callgrind writes one file per process (and per dump): their "totals" lines add up.
  let sum = 0;
  for (const file of readdirSync(dir)) {
    const found = /^totals: (\d+)$/m.exec(readFileSync(join(dir, file), 'utf8'));
    if (found) sum += Number(found[1]);
  }
  rmSync(dir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
  if (sum === 0) throw new Error('callgrind counted nothing');
  return sum;
}

/*
 * Warms the server up with WARM_UP calls, zeroes its counts, then makes `calls` more: 32 in
 * flight over raw keep-alive connections sharing one session.
 */
async function driveHttp(child, calls) {
  const url = await new Promise((resolve, reject) => {
    for (const output of [child.stdout, child.stderr].filter(Boolean)) {
      createInterface({ input: output }).on('line', (line) => {
        const found = URL_PATTERN.exec(line);
        if (found) resolve(found[0]);
      });
    }
    child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
  });
  const connections = await Promise.all(
    Array.from({ length: IN_FLIGHT }, () => RawHttpConnection.open(url)),
  );
  const headers = await openSession(connections[0]);
  const call = SERVICE ? searchNotesCall() : echoCall();
  let id = 0;
  const run = (count) =>
    drive({
      workers: IN_FLIGHT,
      count,
      step: (worker) => callTool(connections[worker], headers, call, ++id),
    });
  await run(WARM_UP);
  // Counted from here: start-up and warm-up vary by more than a call costs.
  execFileSync('callgrind_control', ['--zero', String(child.pid)], { stdio: 'ignore' });
  await run(calls);
  for (const connection of connections) connection.close();
}

/* As driveHttp, 32 pipelined on the server's stdin and stdout. */
async function driveStdio(child, calls) {
  const client = await new StdioClient(child).ready();
  const call = echoCall();
  const run = (count) => drive({ workers: IN_FLIGHT, count, step: () => client.callTool(call) });
  await run(WARM_UP);
  execFileSync('callgrind_control', ['--zero', String(child.pid)], { stdio: 'ignore' });
  await run(calls);
}

/** Instructions per call of the server in `repo`. */
async function perCall(repo, label) {
  const totals = { [SHORT]: [], [LONG]: [] };
  for (let i = 0; i < Number(flags.repeat); i++) {
    for (const calls of [SHORT, LONG]) {
      const counted = await total(repo, calls);
      totals[calls].push(counted);
      log(
        `${label}: ${calls} calls after the warm-up, ${counted.toLocaleString('en')} instructions`,
      );
    }
  }
  return (median(totals[LONG]) - median(totals[SHORT])) / (LONG - SHORT);
}

try {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
} catch {
  log('valgrind is not installed (Debian: apt-get install valgrind)');
  process.exit(1);
}
const rows = [[`${flags.server} (this checkout)`, await perCall(ROOT, 'this checkout')]];
if (flags.against) {
  const against = prepareAgainst(flags.against, ROOT, log);
  try {
    rows.push([`${flags.server} @ ${flags.against}`, await perCall(against.dir, flags.against)]);
  } finally {
    against.cleanup();
  }
}
for (const [label, instructions] of rows) {
  const ratio = rows.length > 1 ? ` (${(instructions / rows[1][1]).toFixed(3)}×)` : '';
  console.log(
    `${label}: ${Math.round(instructions).toLocaleString('en')} instructions per call${ratio}`,
  );
}
