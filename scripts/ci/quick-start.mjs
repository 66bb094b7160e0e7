#!/usr/bin/env node
/*
 * The README's quick start, as a user runs it: `npm start` on whatever Node is first on PATH
 * (CI runs it on the machine's own Node, after `npm ci`), then a `tools/call` that writes a note and one that finds it, through the
 * official SDK client, then Ctrl-C (SIGINT to the process group), and nothing may be left running.
 *
 *   node scripts/ci/quick-start.mjs [--timeout-ms N]
 *
 * The notes go to a scratch DATA_DIR and the port is chosen by the OS (PORT=0, read from the
 * banner), so it never touches a user's notes or a taken port 3000. Prints what it did and
 * exits non-zero, saying why, on any failure.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BANNER = /MCP Warden notes service: (http:\/\/\S+\/mcp)\n/;
const timeoutFlag = process.argv.indexOf('--timeout-ms');
// Sized for a slow machine: `npm start` builds first (tsc and the bundle), then boots.
const TIMEOUT_MS = timeoutFlag > 0 ? Number(process.argv[timeoutFlag + 1]) : 180_000;

const say = (line) => process.stdout.write(`quick-start: ${line}\n`);

/** Resolves with the first match of `pattern` in the child's stderr, or rejects when it exits. */
function announced(child, pattern) {
  let text = '';
  return new Promise((found, failed) => {
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      text += chunk;
      const match = pattern.exec(text);
      if (match) found(match[1]);
    });
    child.once('exit', (code, signal) =>
      failed(
        new Error(`npm start exited (${code ?? signal}) before listening:\n${text.slice(-2000)}`),
      ),
    );
  });
}

/** Resolves once no process of group `pgid` is left; rejects after 10 s. */
async function groupGone(pgid) {
  for (let waited = 0; waited < 10_000; waited += 50) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    await new Promise((next) => setTimeout(next, 50));
  }
  throw new Error('the service still runs 10 s after npm start was stopped');
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'mcp-warden-quick-start-'));
  // `detached` puts npm and the node it starts in one process group, so the stop reaches both.
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '', PORT: '0', DATA_DIR: dataDir },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  const exited = new Promise((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  const deadline = setTimeout(() => {
    say(`FAIL: no answer within ${TIMEOUT_MS} ms`);
    process.kill(-child.pid, 'SIGKILL');
    process.exit(1);
  }, TIMEOUT_MS);
  try {
    say(`npm start on node ${process.version}`);
    const url = await announced(child, BANNER);
    say(`serving ${url}`);
    const client = new Client({ name: 'quick-start', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    // One write and the read that finds it: the embedded SQLite store really keeps the note.
    const title = `quick start ${process.pid}`;
    const created = await client.callTool({
      name: 'create_note',
      arguments: { title, body: 'written by the quick-start smoke run' },
    });
    if (created.isError) throw new Error(`create_note failed: ${JSON.stringify(created.content)}`);
    const found = await client.callTool({ name: 'search_notes', arguments: { query: title } });
    if (found.isError || !JSON.stringify(found.content).includes(title)) {
      throw new Error(`search_notes did not find the note: ${JSON.stringify(found.content)}`);
    }
    say('tools/call create_note, then search_notes finds it: ok');
    await client.close();
    // Stopped as a terminal's Ctrl-C stops it: SIGINT to the whole process group (npm, the
    // shell npm runs the script in, and the service). npm reports the signal as its own exit;
    // what must hold is that nothing of the group is left running.
    process.kill(-child.pid, 'SIGINT');
    const { code, signal } = await exited;
    if (!(code === 0 || code === 130 || signal === 'SIGINT')) {
      throw new Error(`npm start ended with ${code ?? signal} after SIGINT`);
    }
    await groupGone(child.pid);
    say('stopped cleanly: ok');
  } finally {
    clearTimeout(deadline);
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  say(`FAIL: ${error.message}`);
  process.exit(1);
});
