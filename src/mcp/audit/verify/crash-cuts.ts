import type { McpAuditBreak, Parsed, StoredLine } from './chain-verifier.js';

/* The file a JSON Lines record was read from: its `where` without the line number. */
function fileOf(where: string): string {
  return where.slice(0, where.lastIndexOf(':'));
}

/* A file's name without its number: the files of one chain (`audit-<instance>-<n>.jsonl`). */
function seriesOf(file: string): string {
  return file.replace(/-\d+\.jsonl$/, '');
}

/*
 * Where a crash may leave a partial line: at the end of a series' newest file that holds
 * records, or alone in a newer file of the series (a rotation whose first write never ended), or
 * in a file of a series with no record at all (a start killed in its first write). A file the
 * chain goes on after was closed whole, so a fragment there was put there: inserted. Returns,
 * by instance, the partial line its report notes.
 */
export function crashCuts(
  torn: readonly StoredLine[],
  chains: ReadonlyMap<string, readonly Parsed[]>,
  stray: McpAuditBreak[],
): Map<string, string> {
  const cuts = new Map<string, string>();
  if (torn.length === 0) return cuts;
  // The newest file number holding records, by series, and whose chain it is.
  const newest = new Map<string, { segment: number; instance: string }>();
  for (const [instance, records] of chains) {
    for (const record of records) {
      const series = seriesOf(fileOf(record.where));
      const segment = record.segment ?? 0;
      const known = newest.get(series);
      if (!known || segment > known.segment) newest.set(series, { segment, instance });
    }
  }
  for (const line of torn) {
    const known = newest.get(seriesOf(fileOf(line.where)));
    if (!known) continue;
    if ((line.segment ?? 0) >= known.segment) {
      if (!cuts.has(known.instance)) cuts.set(known.instance, line.where);
      continue;
    }
    stray.push({
      kind: 'inserted',
      where: line.where,
      message: 'a line that is not a JSON record',
    });
  }
  return cuts;
}
