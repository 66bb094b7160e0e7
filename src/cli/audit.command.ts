import { createPublicKey, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { verifyChains, type McpAuditChainReport } from '../mcp/audit/verify/chain-verifier.js';
import { readAuditSource } from './audit/record-source.js';
import { readPublished } from './audit/published-checkpoints.js';

export const AUDIT_USAGE = `  mcp-warden audit verify <dir|file|postgres://…|sqlite:<path>>... [--key <public key PEM>]
                          [--checkpoints <published.jsonl|redis://…[?key=…]>] [--table <name>]
  mcp-warden audit query  <dir|file|postgres://…|sqlite:<path>>... [--principal <sub>] [--tool <name>]
                          [--decision allow|ask|deny] [--kind <kind>] [--since <ISO time>]
                          [--until <ISO time>] [--format jsonl|table] [--table <name>]
`;

type Print = (line: string) => void;

/** `mcp-warden audit …` (docs/audit.md). Exit 0 when every check holds, 1 when one fails, 2 for usage. */
export async function runAuditCommand(argv: string[], out: Print, err: Print): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      key: { type: 'string' },
      checkpoints: { type: 'string' },
      table: { type: 'string' },
      principal: { type: 'string' },
      tool: { type: 'string' },
      decision: { type: 'string' },
      kind: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      format: { type: 'string' },
    },
  });
  const [command, ...sources] = positionals;
  if ((command !== 'verify' && command !== 'query') || sources.length === 0) {
    err(`Usage:\n${AUDIT_USAGE}`);
    return 2;
  }
  // Several sources are read as one: the chains of instances that each kept their own.
  const lines = (
    await Promise.all(sources.map((source) => readAuditSource(source, values.table)))
  ).flat();
  if (command === 'query')
    return query(
      lines.map((stored) => stored.line),
      values,
      out,
      err,
    );
  const key = values.key ? createPublicKey(await readFile(values.key, 'utf8')) : undefined;
  const published = values.checkpoints ? await readPublished(values.checkpoints) : [];
  const reports = verifyChains(lines, key, published);
  return report(reports, key, out, err);
}

function report(
  reports: McpAuditChainReport[],
  key: KeyObject | undefined,
  out: Print,
  err: Print,
): number {
  if (reports.length === 0) {
    err('mcp-warden audit: no records found');
    return 1;
  }
  let failed = 0;
  let unchecked = 0;
  for (const chain of reports) {
    // A signature left unchecked does not hold: a signed log is verified with its key.
    if (chain.breaks.length === 0 && !key && chain.checkpoints > 0) {
      unchecked += 1;
      out(
        `UNCHECKED ${chain.instance}: ${chain.records} records, chain intact; ` +
          `${chain.checkpoints} checkpoints not verified: pass --key <public key>`,
      );
      continue;
    }
    if (chain.breaks.length === 0) {
      const signed = key
        ? `${chain.verifiedCheckpoints}/${chain.checkpoints} checkpoints verified, ${chain.unsignedTail} records after the last`
        : 'no checkpoints (nothing signed)';
      out(`ok      ${chain.instance}: ${chain.records} records, chain intact; ${signed}`);
      notes(chain, out);
      continue;
    }
    failed += 1;
    out(`BROKEN  ${chain.instance}: ${chain.records} records`);
    for (const found of chain.breaks) {
      const record =
        found.seq !== undefined ? ` record ${found.seq}${found.id ? ` (${found.id})` : ''}` : '';
      out(`  ${found.kind}:${record} at ${found.where}: ${found.message}`);
    }
    notes(chain, out);
  }
  const intact = reports.length - failed - unchecked;
  out(`${intact} chains intact, ${failed} broken${unchecked ? `, ${unchecked} unchecked` : ''}`);
  return failed + unchecked === 0 ? 0 : 1;
}

/* What the verifier saw that is not a break: retention's removals, a crash's partial line. */
function notes(chain: McpAuditChainReport, out: Print): void {
  if (chain.pruned) {
    out(
      `  note: records 1–${chain.pruned} are in files no longer kept (retention, maxFiles); ` +
        `verified from record ${chain.pruned + 1}`,
    );
  }
  if (chain.torn) {
    out(`  note: ${chain.torn} is a partial last line, a write left unfinished: not a record`);
  }
}

type Filters = Partial<
  Record<'principal' | 'tool' | 'decision' | 'kind' | 'since' | 'until' | 'format', string>
>;

function query(lines: string[], filters: Filters, out: Print, err: Print): number {
  const format = filters.format ?? 'jsonl';
  if (format !== 'jsonl' && format !== 'table') {
    err('mcp-warden audit: --format is jsonl or table');
    return 2;
  }
  const since = instantOf(filters.since, 0);
  const until = instantOf(filters.until, DAY_MS - 1);
  if (Number.isNaN(since) || Number.isNaN(until)) {
    err('mcp-warden audit: --since and --until take an ISO time (2026-12-07T10:00:00Z) or day');
    return 2;
  }
  const rows: Record<string, unknown>[] = [];
  for (const line of lines) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    // A line that is JSON but no record (null, an array) matches nothing.
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) continue;
    const record = parsed as Record<string, unknown>;
    if (filters.principal && record.principal !== filters.principal) continue;
    if (filters.tool && record.name !== filters.tool) continue;
    if (filters.decision && record.decision !== filters.decision) continue;
    if (filters.kind && record.kind !== filters.kind) continue;
    if (filters.since !== undefined || filters.until !== undefined) {
      // A record without a time it can be placed at is outside every bound.
      const time = typeof record.time === 'string' ? Date.parse(record.time) : NaN;
      if (!(time >= since && time <= until)) continue;
    }
    if (format === 'jsonl') out(line);
    else rows.push(record);
  }
  if (format === 'table') table(rows, out);
  return 0;
}

const DAY_MS = 86_400_000;

/* A day (2026-12-07), or an ISO time with its offset (Z or ±hh:mm): never the machine's zone. */
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/*
 * A bound as a time: an ISO time with its offset as given, a day alone (in UTC, as records'
 * times are) from its start, plus `dayEnd` for --until, so that day is included. No bound:
 * unbounded. NaN: not a time, or a day that does not exist (2026-02-31).
 */
function instantOf(text: string | undefined, dayEnd: number): number {
  if (text === undefined) return dayEnd === 0 ? -Infinity : Infinity;
  const day = DAY.exec(text);
  if (day) {
    const time = Date.parse(`${text}T00:00:00Z`);
    // Date.parse rolls 2026-02-31 over to March: a day is only one it writes back the same.
    if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== text) return NaN;
    return time + dayEnd;
  }
  return TIME_WITH_OFFSET.test(text) ? Date.parse(text) : NaN;
}

const COLUMNS = [
  'time',
  'kind',
  'seam',
  'principal',
  'name',
  'decision',
  'outcome',
  'detail',
  'id',
];

/*
 * A field as a table cell: what a caller or an app shaped (a principal, a tool's name, a
 * detail) may hold control characters, which a terminal would act on (colours, a title, a
 * cleared screen) or which would break the row; they are written escaped, as JSON escapes them.
 */
function cellOf(value: unknown): string {
  if (value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => {
    const escaped = JSON.stringify(c).slice(1, -1);
    return escaped.length > 1 ? escaped : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

function table(rows: Record<string, unknown>[], out: Print): void {
  const cells = rows.map((row) => COLUMNS.map((column) => cellOf(row[column])));
  // A loop, not a spread of every row into Math.max: a month of records is more arguments than
  // a call may take.
  const widths = COLUMNS.map((column) => column.length);
  for (const cell of cells) {
    cell.forEach(
      (value, index) => (widths[index] = Math.min(40, Math.max(widths[index]!, value.length))),
    );
  }
  const render = (cell: string[]) =>
    cell
      .map((value, index) => value.slice(0, widths[index]).padEnd(widths[index]!))
      .join('  ')
      .trimEnd();
  out(render(COLUMNS));
  for (const cell of cells) out(render(cell));
}
