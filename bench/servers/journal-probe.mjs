// Preloaded (node --import) by journal-in-server.mjs into an audited bench server: times, on the
// event loop, what the audit's own code takes of each call, by part, and V8's pauses for
// garbage collection; and, off the loop, how long each sink write takes to settle (its records
// counted) and how long a call that waits for its record (failClosed) waits. Every 100 ms it
// writes its running totals (ns, and the calls counted by their outcome records) as JSON to the
// file JOURNAL_PROBE_FILE names; the bench reads them as its measurement starts and ends. The
// parts are methods of the built classes, wrapped in place: the same module instances the app
// imports (dist/, by URL).
import { writeFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';

const dist = (path) => new URL(`../../dist/${path}`, import.meta.url).href;
const { McpAuditService } = await import(dist('mcp/authorization/audit/mcp-audit.service.js'));
const { McpAuditJournalService } = await import(dist('mcp/audit/journal/audit-journal.service.js'));
const { SinkWriter } = await import(dist('mcp/audit/journal/sink-writer.js'));
const { JsonlFileSink } = await import(dist('mcp/audit/sinks/jsonl-file.sink.js'));
const { SqliteWorkerSink } = await import(dist('mcp/audit/sinks/sqlite-worker.sink.js'));

const totals = {
  calls: 0,
  record: 0,
  outcome: 0,
  seal: 0,
  flush: 0,
  gc: 0,
  // Sink writes: how many, the records they carried, and the ns from each call to its settling.
  writes: 0,
  written: 0,
  writing: 0,
  // Records a call waited for (failClosed), and the ns it waited.
  waits: 0,
  waited: 0,
};

/* The part being timed now, and the time of the parts timed within it. */
let active;

/*
 * Times the synchronous part of `prototype[method]` (an async one's, up to its first await),
 * less the parts timed within it: a write begun seals the turn's records first, and that seal
 * counts as `seal`, not `flush`.
 */
function time(prototype, method, part) {
  const original = prototype[method];
  prototype[method] = function (...args) {
    const outer = active;
    const frame = { within: 0 };
    active = frame;
    const start = process.hrtime.bigint();
    try {
      return original.apply(this, args);
    } finally {
      const took = Number(process.hrtime.bigint() - start);
      totals[part] += took - frame.within;
      if (outer) outer.within += took;
      active = outer;
      if (part === 'outcome') totals.calls++;
    }
  };
}
// A decision as the tool seam records it: its event, the arguments' digest, numbered.
time(McpAuditService.prototype, 'record', 'record');
// The call's outcome record.
time(McpAuditService.prototype, 'outcome', 'outcome');
// Each turn's records chained: lines written and hashed, queued for the sinks.
time(McpAuditJournalService.prototype, 'seal', 'seal');
// A sink's write begun: the batch encoded and handed to the file (or the SQLite thread).
time(SinkWriter.prototype, 'flush', 'flush');

/* Calls `settled(args, ns)` when `prototype[method]`'s promise settles, ns counted from the call. */
function settle(prototype, method, settled) {
  const original = prototype[method];
  prototype[method] = function (...args) {
    const start = process.hrtime.bigint();
    const result = original.apply(this, args);
    if (!result || typeof result.then !== 'function') return result;
    const done = () => settled(args, Number(process.hrtime.bigint() - start));
    result.then(done, done);
    return result;
  };
}
// A batch's write, from the writer's call until the sink has it (a file's synced writev, the
// SQLite thread's commit), with the records it carried.
for (const sink of [JsonlFileSink, SqliteWorkerSink]) {
  settle(sink.prototype, 'write', ([batch], ns) => {
    totals.writes++;
    totals.written += batch.length;
    totals.writing += ns;
  });
}
// A decision record a call waits for (failClosed), from its numbering until every sink holds it.
settle(McpAuditJournalService.prototype, 'append', (_args, ns) => {
  totals.waits++;
  totals.waited += ns;
});
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) totals.gc += entry.duration * 1e6;
}).observe({ entryTypes: ['gc'] });

const file = process.env.JOURNAL_PROBE_FILE;
if (file) setInterval(() => writeFileSync(file, JSON.stringify(totals)), 100).unref();
