// Turns the runs into Markdown: one table per workload (medians over the runs, the range of the
// first figure, and ratios to the baselines of the same invocation).
import { BASELINES } from './catalog.mjs';
import { median } from './measure.mjs';

export function format(value, unit) {
  if (!Number.isFinite(value)) return '—';
  if (unit === '/s') return Math.round(value).toLocaleString('en-US');
  if (unit === 'KB') return value.toFixed(1);
  if (unit === '%' || (unit === 'µs' && value >= 100)) return value.toFixed(0);
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

// `floor`: a baseline at or below it is noise (a bare server's ~0 KB per session), not a divisor.
const ratio = (value, base, floor = 0) =>
  Number.isFinite(value) && base > floor
    ? `${(value / base).toFixed(value / base >= 10 ? 1 : 2)}×`
    : '—';

/** Median of each metric over the runs of each server: [{ server, runs, median }]. */
export function summarize(servers, results) {
  return servers.map((server) => {
    const runs = results.get(server.id);
    const medians = {};
    for (const key of Object.keys(runs[0])) medians[key] = median(runs.map((run) => run[key]));
    return { server, runs, median: medians };
  });
}

/**
 * One Markdown table for `metrics` of `rows` (from summarize); the ratio columns divide by the
 * baseline roles, or by the rows of the servers `baselineIds` names. With `againstRef`, a last
 * column divides each row by its twin built from that ref (bench/lib/against.mjs).
 */
export function table(title, metrics, rows, baselineIds, againstRef) {
  const baselines = baselineIds
    ? baselineIds
        .map((id) => rows.find((row) => row.server.id === id))
        .map((row) => [row.server.label, row])
    : BASELINES.map((role) => [role, rows.find((row) => row.server.role === role)]).filter(
        ([, row]) => row,
      );
  const compared = metrics.filter((m) => m.ratio !== false);
  const pair = compared.length > 1 ? ` (${compared.map((m) => m.short).join(' / ')})` : '';
  const first = metrics[0];
  const header = [
    'server',
    ...metrics.map((m) => m.label),
    `runs: ${first.label} min–max`,
    ...baselines.map(([role]) => `vs ${role}${pair}`),
    ...(againstRef ? [`vs ${againstRef}${againstPair(metrics)}`] : []),
  ];
  const lines = rows.map(({ server, runs, median: m }) => {
    const firsts = runs.map((run) => run[first.key]);
    return [
      server.label,
      ...metrics.map((metric) => format(m[metric.key], metric.unit)),
      `${format(Math.min(...firsts), first.unit)}–${format(Math.max(...firsts), first.unit)}`,
      ...baselines.map(([, base]) =>
        compared
          .map((metric) => ratio(m[metric.key], base.median[metric.key], metric.floor))
          .join(' / '),
      ),
      ...(againstRef ? [versusTwin(server, m, rows, againstMetrics(metrics))] : []),
    ];
  });
  const row = (cells) => `| ${cells.join(' | ')} |`;
  return [
    `### ${title}`,
    '',
    row(header),
    row(header.map((_, i) => (i === 0 ? '---' : '---:'))),
    ...lines.map(row),
  ].join('\n');
}

/* Against the ref, the server's CPU per call is compared too: it is the steadiest figure. */
const againstMetrics = (metrics) =>
  metrics.filter((metric) => metric.ratio !== false || metric.key === 'serverCpu');

function againstPair(metrics) {
  const compared = againstMetrics(metrics);
  return compared.length > 1 ? ` (${compared.map((m) => m.short ?? m.label).join(' / ')})` : '';
}

/* A row divided by its twin from the `--against` ref (the metrics compared), or — without one. */
function versusTwin(server, medians, rows, compared) {
  const twin = rows.find((row) => row.server.twinOf === server.id);
  if (!twin) return '—';
  return compared
    .map((metric) => ratio(medians[metric.key], twin.median[metric.key], metric.floor))
    .join(' / ');
}
