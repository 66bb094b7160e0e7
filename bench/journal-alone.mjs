// What the audit costs the event loop per tools/call, without a server around it: the events of a
// call (its decision and its outcome, as the tool seam and the invoker record them), chained by the
// journal and handed to a sink that keeps nothing, in turns of --per-turn calls (the journal seals
// at the end of each turn, as under load). Beside it, the SHA-256 digests the chain makes of the
// same lines, alone, and the same calls with no journal at all.
//
//   npm run build && node bench/journal-alone.mjs [--calls 100000] [--per-turn 16] [--runs 5]
//
// A server's call costs more than this (its other work keeps the caches cold), but the shares
// hold: docs/audit.md, "Performance", and bench/results/2026-12-06-chain-ceiling.md.
import { parseArgs } from 'node:util';
import { lineDigest, GENESIS } from '../dist/mcp/audit/chain/audit-record.js';
import { recordLine } from '../dist/mcp/audit/chain/record-line.js';
import { McpAuditJournalService } from '../dist/mcp/audit/journal/audit-journal.service.js';
import { McpAuditService } from '../dist/mcp/authorization/audit/mcp-audit.service.js';
import { median } from './lib/measure.mjs';

const { values: flags } = parseArgs({
  options: {
    calls: { type: 'string', default: '100000' },
    'per-turn': { type: 'string', default: '16' },
    runs: { type: 'string', default: '5' },
  },
});
const CALLS = Number(flags.calls);
const PER_TURN = Number(flags['per-turn']);
const turnEnded = () => new Promise((resolve) => setImmediate(resolve));

/* The seam's telemetry port, as a server without an OpenTelemetry SDK has it. */
const telemetry = { decision() {}, traceIdOf: () => undefined };
const connection = { id: 'c-0123456789abcdef' };

function auditOf(withJournal) {
  const journal = withJournal
    ? new McpAuditJournalService('bench', { sinks: [{ name: 'discard', write: async () => {} }] })
    : null;
  return { journal, audit: new McpAuditService(telemetry, {}, journal) };
}

/* One call's records: its decision at the tool seam, then its outcome. */
function call(audit, id) {
  const request = {
    connection,
    id,
    transport: 'http',
    era: 'legacy',
    method: 'tools/call',
    params: { name: 'echo', arguments: { text: 'hello from the bench' } },
  };
  audit.record(request, 'tool', 'echo', 'allow');
  audit.outcome(request, 'echo', 'ok', 0.042);
}

/* Main-thread µs per call over CALLS calls, PER_TURN to a turn of the loop. */
async function perCall(run) {
  const start = process.cpuUsage();
  for (let done = 0; done < CALLS; done += PER_TURN) {
    for (let i = 0; i < PER_TURN; i++) run(done + i);
    await turnEnded();
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / CALLS;
}

/* The chain's digests alone: two record lines a call, as the journal writes and hashes them. */
function digestsOf() {
  const event = {
    id: '3b1f4c2e-8f0a-4a8e-9d3c-1a2b3c4d5e6f',
    kind: 'decision',
    time: new Date().toISOString(),
    connId: connection.id,
    requestId: 1,
    transport: 'http',
    era: 'legacy',
    seam: 'tool',
    name: 'echo',
    decision: 'allow',
    argumentsDigest: GENESIS,
  };
  let head = GENESIS;
  return (seq) => {
    head = lineDigest(recordLine(event, 'bench-instance', seq * 2, head));
    head = lineDigest(recordLine(event, 'bench-instance', seq * 2 + 1, head));
  };
}

const ways = {
  'no journal (events built for nobody)': auditOf(false),
  'the chain, kept nowhere': auditOf(true),
};
for (const { journal } of Object.values(ways)) await journal?.onApplicationBootstrap();
const results = new Map(
  [...Object.keys(ways), 'two record lines built and hashed'].map((k) => [k, []]),
);
const lines = digestsOf();
for (let run = 0; run < Number(flags.runs); run++) {
  for (const [name, { audit }] of Object.entries(ways)) {
    results.get(name).push(await perCall((id) => call(audit, id)));
  }
  results.get('two record lines built and hashed').push(await perCall(lines));
}
for (const { journal } of Object.values(ways)) await journal?.onApplicationShutdown();

console.log(`| way | main-thread µs per call (median of ${flags.runs} runs) |`);
console.log('| --- | --: |');
for (const [name, values] of results) console.log(`| ${name} | ${median(values).toFixed(2)} |`);
