// What handing a batch of audit lines to the SQLite sink's thread costs the event loop: building
// the message and posting it, per line, for a batch as one string (how the sink did it before
// sinks/line-chunks.ts) and as chunks of at most 32 KiB (how it does now). The lines are the
// journal's own (chain/record-line.ts, each hashed as the chain does), and a real thread receives
// every batch, as the writer thread would.
//
//   npm run build && node bench/sink-handoff.mjs [--lines 700] [--batches 60] [--runs 3]
//
// 700 lines is a batch of the notes service under the throughput-http load (a write every 50 ms).
// The ways are interleaved over the runs; each cell is the median run.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { GENESIS, lineDigest } from '../dist/mcp/audit/chain/audit-record.js';
import { recordLine } from '../dist/mcp/audit/chain/record-line.js';
import { argumentsDigest } from '../dist/mcp/authorization/audit/arguments-digest.js';
import { lineChunks } from '../dist/mcp/audit/sinks/line-chunks.js';
import { median } from './lib/measure.mjs';

const { values: flags } = parseArgs({
  options: {
    lines: { type: 'string', default: '700' },
    batches: { type: 'string', default: '60' },
    runs: { type: 'string', default: '3' },
  },
});
const receiver = new Worker(
  `require('node:worker_threads').parentPort.on('message', ({ lines, chunks }) => {
     for (const text of chunks ?? [lines]) text.split('\\n');
   });`,
  { eval: true },
);
const ways = {
  'one string': (entries) => ({ lines: entries.map((entry) => entry.line).join('\n') }),
  'chunks of 32 KiB': (entries) => ({ chunks: lineChunks(entries) }),
};

/* A batch as the journal seals it: a decision record's line per entry, chained. */
function batch(count) {
  let prev = GENESIS;
  return Array.from({ length: count }, (_, index) => {
    const event = {
      id: randomUUID(),
      kind: 'decision',
      time: new Date().toISOString(),
      connId: randomUUID(),
      requestId: index,
      transport: 'http',
      era: 'handshake',
      seam: 'tool',
      name: 'search_notes',
      decision: 'allow',
      argumentsDigest: argumentsDigest({ query: `hello${index}` }),
    };
    const line = recordLine(event, 'bench-instance', index + 1, prev);
    prev = lineDigest(line);
    return { line };
  });
}

const results = Object.fromEntries(Object.keys(ways).map((way) => [way, []]));
for (let run = 0; run < Number(flags.runs); run++) {
  for (const [way, message] of Object.entries(ways)) {
    let elapsed = 0;
    for (let index = 0; index < Number(flags.batches); index++) {
      const entries = batch(Number(flags.lines));
      // The thread takes the last batch meanwhile, as it would between two writes.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const start = performance.now();
      receiver.postMessage(message(entries));
      elapsed += performance.now() - start;
    }
    results[way].push((elapsed * 1000) / (Number(flags.batches) * Number(flags.lines)));
  }
}
await receiver.terminate();
console.log(
  `${flags.lines} lines a batch, ${flags.batches} batches, ${flags.runs} runs (Node ${process.version}):`,
);
for (const [way, values] of Object.entries(results)) {
  console.log(
    `  ${way}: ${median(values).toFixed(2)} µs a line to build and post (runs ${values.map((v) => v.toFixed(2)).join(', ')})`,
  );
}
