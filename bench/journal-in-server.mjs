// What the audit's own code takes of a call's event-loop time inside the bench server under load,
// by part: the decision record (its event, the arguments' digest), the outcome record, the
// turn's seal (lines written and hashed, queued), the sink's write begun; beside them V8's
// garbage-collection pauses per call (all of the server's, audit or not). journal-alone.mjs
// times the same code alone; here it runs among the rest of each call's work. Off the loop, it
// also reports the sink's writes (how many a second, records each, time each took to settle)
// and, with failClosed, how long a call waited for its decision record: the wait that bounds
// such a server's calls per second at a given number in flight (docs/audit.md, "Performance").
//
//   npm run build && node bench/journal-in-server.mjs [--row warden-audit-http] [--runs 3] [--seconds 4]
//
// Each run is a fresh server (a row of lib/catalog.mjs with a journal: warden-audit-http,
// warden-audit-fail-closed-http, warden-audit-discard-http, or the notes service, service-http,
// whose records go to its database) under the throughput-http load, preloaded with
// servers/journal-probe.mjs. The timing itself adds about 0.1 µs a part. In the service, the
// decision and outcome records also hand each event to its stderr log's subscriber.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runRow } from './lib/row-runs.mjs';

const { values: flags } = parseArgs({
  options: {
    row: { type: 'string', default: 'warden-audit-http' },
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '4' },
  },
});
const PROBE = fileURLToPath(new URL('servers/journal-probe.mjs', import.meta.url));
const CODE = ['record', 'outcome', 'seal', 'flush'];
const probeDir = mkdtempSync(join(tmpdir(), 'mcp-warden-journal-probe-'));

await runRow({
  rowId: flags.row,
  runs: Number(flags.runs),
  seconds: Number(flags.seconds),
  accept(row) {
    // The notes service keeps its records unless AUDIT_RECORDS=off (service-no-records-http).
    const service = row.script.endsWith('dist/app/main.js') && row.env?.AUDIT_RECORDS !== 'off';
    const audited = row.env?.WARDEN_AUDIT || service;
    if (!audited) throw new Error(`${flags.row}: not an audited HTTP row`);
  },
  prepare: (row, run) => ({
    server: { ...row, env: { ...row.env, JOURNAL_PROBE_FILE: join(probeDir, `run-${run}.json`) } },
    nodeFlags: ['--import', PROBE],
  }),
  // The probe writes its totals every 100 ms, so each edge of the measured part is within 0.1 s.
  read: (_handle, server) => JSON.parse(readFileSync(server.env.JOURNAL_PROBE_FILE, 'utf8')),
  report(run, result, before, after) {
    const calls = after.calls - before.calls;
    const perCall = (part) => (after[part] - before[part]) / calls / 1000;
    const audit = CODE.reduce((sum, part) => sum + perCall(part), 0);
    const delta = (field) => after[field] - before[field];
    const writes = delta('writes');
    const waits = delta('waits');
    console.log(
      `run ${run}: ${result.rate.toFixed(0)} calls/s, server ${result.serverCpu.toFixed(1)} µs/call; ` +
        `audit code ${audit.toFixed(2)} µs a call (` +
        CODE.map((part) => `${part} ${perCall(part).toFixed(2)}`).join(', ') +
        `), GC pauses ${perCall('gc').toFixed(2)} µs a call` +
        // A file's or the SQLite thread's writes; a sink that keeps nothing has none to time.
        (writes > 0
          ? `; ${(writes / (calls / result.rate)).toFixed(0)} writes/s of ` +
            `${(delta('written') / writes).toFixed(1)} records, each ` +
            `${(delta('writing') / writes / 1e6).toFixed(3)} ms`
          : '') +
        (waits > 0 ? `; a call waited ${(delta('waited') / waits / 1e6).toFixed(3)} ms` : ''),
    );
  },
  cleanup: () => rmSync(probeDir, { recursive: true, force: true }),
});
