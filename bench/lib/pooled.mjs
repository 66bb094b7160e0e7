import { median } from './measure.mjs';

/*
 * One row against another over many whole runs (bench/pooled-ratio.mjs). A run of `run.mjs`
 * measures its rows in turn, run after run, so the n-th run of two rows falls minutes apart at
 * most: the ratio of each such pair moves less with the machine than the ratio of two medians.
 * Pooled over every report kept, a gap of a few percent that one run cannot tell from the
 * machine's swings shows, or does not.
 */

/**
 * The per-run ratios of `row` to `versus` (their `key`: calls/s `rate`, or `serverCpu`) in each
 * report that measured both in `workload`, and their median and quartiles over all reports.
 * `reports`: `{ name, data }`, `data` a report's JSON (`{ runs: { [workload]: { [row]: [...] } } }`).
 */
export function pooledRatios(reports, { workload, row, versus, key }) {
  const perReport = [];
  for (const { name, data } of reports) {
    const rows = data?.runs?.[workload];
    const [ours, theirs] = [rows?.[row], rows?.[versus]];
    if (!Array.isArray(ours) || !Array.isArray(theirs)) continue;
    const ratios = [];
    for (let i = 0; i < Math.min(ours.length, theirs.length); i++) {
      const [a, b] = [ours[i]?.[key], theirs[i]?.[key]];
      if (Number.isFinite(a) && Number.isFinite(b) && b > 0) ratios.push(a / b);
    }
    if (ratios.length > 0) perReport.push({ name, ratios });
  }
  const all = perReport.flatMap((report) => report.ratios).sort((a, b) => a - b);
  if (all.length === 0) return { perReport, count: 0 };
  return {
    perReport,
    count: all.length,
    median: median(all),
    // The middle half of the pairs: where the machine's swings leave the ratio.
    lower: median(all.slice(0, all.length >> 1)),
    upper: median(all.slice((all.length + 1) >> 1)),
    atLeastOne: all.filter((ratio) => ratio >= 1).length,
  };
}
