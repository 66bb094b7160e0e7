// Round-trip throughput of the stdio transport for trivial calls.
//
//   npm run build && node bench/stdio-roundtrip.mjs [N] [IN_FLIGHT]
//
// Spawns dist/app/main-stdio.js with a throwaway DATA_DIR, initializes, then
// sends N `ping` requests and N `tools/call search_notes {query:'x'}` requests,
// each with IN_FLIGHT requests outstanding at all times, and prints calls/s.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const N = Number(process.argv[2] ?? 20_000);
const IN_FLIGHT = Number(process.argv[3] ?? 32);
const main = join(dirname(fileURLToPath(import.meta.url)), '../dist/app/main-stdio.js');
const dataDir = mkdtempSync(join(tmpdir(), 'mcp-warden-bench-'));

const child = spawn(process.execPath, [main], {
  env: { ...process.env, DATA_DIR: dataDir, NODE_OPTIONS: '' },
  stdio: ['pipe', 'pipe', 'ignore'],
});

const pending = new Map();
let nextId = 1;
let buffered = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  buffered += chunk;
  let newline;
  while ((newline = buffered.indexOf('\n')) !== -1) {
    const text = buffered.slice(0, newline);
    buffered = buffered.slice(newline + 1);
    const message = JSON.parse(text);
    const settle = pending.get(message.id);
    if (settle) {
      pending.delete(message.id);
      settle(message);
    }
  }
});
child.once('exit', (code, signal) => {
  if (pending.size > 0) {
    console.error(`server exited early (code ${code}, signal ${signal})`);
    process.exit(1);
  }
});

function request(method, params) {
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
  });
}

async function run(label, method, params, check) {
  let sent = 0;
  let failures = 0;
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (sent < N) {
      sent++;
      const reply = await request(method, params);
      if (!check(reply)) failures++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const rate = Math.round(N / seconds);
  console.log(
    `${label.padEnd(20)} ${N} calls, ${IN_FLIGHT} in flight: ${seconds.toFixed(2)} s, ` +
      `${rate} calls/s${failures ? `, ${failures} FAILED` : ''}`,
  );
  return rate;
}

await request('initialize', {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'stdio-roundtrip-bench', version: '1.0.0' },
});
child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');

await run('ping', 'ping', {}, (reply) => reply.result !== undefined);
await run(
  'tools/call search',
  'tools/call',
  { name: 'search_notes', arguments: { query: 'x' } },
  (reply) => reply.result !== undefined && !reply.result.isError,
);

child.stdin.end();
await new Promise((resolve) => child.once('exit', resolve));
rmSync(dataDir, { recursive: true, force: true });
