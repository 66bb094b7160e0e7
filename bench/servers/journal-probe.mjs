// Preloaded (node --import) by journal-in-server.mjs into an audited bench server: times, on the
// event loop, what the audit's own code takes of each call, by part, and V8's pauses for
// garbage collection. Every 100 ms it writes its running totals (ns, and the calls counted by
// their outcome records) as JSON to the file JOURNAL_PROBE_FILE names; the bench reads them as
// its measurement starts and ends. The parts are methods of the built classes, wrapped in place:
// the same module instances the app imports (dist/, by URL).
import { writeFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';

const dist = (path) => new URL(`../../dist/${path}`, import.meta.url).href;
const { McpAuditService } = await import(dist('mcp/authorization/audit/mcp-audit.service.js'));
const { McpAuditJournalService } = await import(dist('mcp/audit/journal/audit-journal.service.js'));
const { SinkWriter } = await import(dist('mcp/audit/journal/sink-writer.js'));

const totals = { calls: 0, record: 0, outcome: 0, seal: 0, flush: 0, gc: 0 };

/* Times the synchronous part of `prototype[method]` (an async one's, up to its first await). */
function time(prototype, method, part) {
  const original = prototype[method];
  prototype[method] = function (...args) {
    const start = process.hrtime.bigint();
    try {
      return original.apply(this, args);
    } finally {
      totals[part] += Number(process.hrtime.bigint() - start);
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
// A sink's write begun: the batch encoded and handed to the file.
time(SinkWriter.prototype, 'flush', 'flush');
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) totals.gc += entry.duration * 1e6;
}).observe({ entryTypes: ['gc'] });

const file = process.env.JOURNAL_PROBE_FILE;
if (file) setInterval(() => writeFileSync(file, JSON.stringify(totals)), 100).unref();
