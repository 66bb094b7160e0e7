import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  DataPointType,
  MeterProvider,
  MetricReader,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import { McpTelemetryMetrics } from './telemetry-metrics.js';

/* A pull reader with the temporality asked for: what an exporter would be handed. */
class PullReader extends MetricReader {
  constructor(temporality: AggregationTemporality) {
    super({ aggregationTemporalitySelector: () => temporality });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

const counts = () => ({
  connections: 0,
  inFlight: 0,
  pendingClientRequests: 0,
  parkedApprovals: 0,
});

/* The value of `name`'s point whose attributes include `match`. */
async function value(reader: PullReader, name: string, match: Record<string, string>) {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .find((found: MetricData) => found.descriptor.name === name);
  expect(metric?.dataPointType).toBe(DataPointType.SUM);
  expect(metric && 'isMonotonic' in metric && metric.isMonotonic).toBe(true);
  const point = metric!.dataPoints.find((candidate) =>
    Object.entries(match).every(([key, wanted]) => candidate.attributes[key] === wanted),
  );
  return point?.value;
}

describe('McpTelemetryMetrics decision counters (the real metrics SDK)', () => {
  let provider: MeterProvider;
  let reader: PullReader;

  const register = (temporality = AggregationTemporality.CUMULATIVE) => {
    reader = new PullReader(temporality);
    provider = new MeterProvider({ readers: [reader] });
    metrics.setGlobalMeterProvider(provider);
  };

  afterEach(async () => {
    await provider.shutdown();
    metrics.disable();
  });

  it('reports each seam and decision as a monotonic sum, and approvals apart', async () => {
    register();
    const meters = new McpTelemetryMetrics(counts, { 'mcp.server.name': 'one' });
    for (let i = 0; i < 3; i++) meters.decision('tool', 'allow');
    meters.decision('tool', 'deny');
    meters.decision('read', 'allow');
    meters.decision('elicitation', 'allow');
    const decisions = 'mcp_warden.seam.decisions';
    const tool = { 'mcp_warden.seam': 'tool' };
    expect(await value(reader, decisions, { ...tool, 'mcp_warden.decision': 'allow' })).toBe(3);
    expect(await value(reader, decisions, { ...tool, 'mcp_warden.decision': 'deny' })).toBe(1);
    expect(await value(reader, decisions, { 'mcp_warden.seam': 'read' })).toBe(1);
    expect(
      await value(reader, 'mcp_warden.approval.outcomes', { 'mcp_warden.decision': 'allow' }),
    ).toBe(1);
    // Counted again after a collection: the totals keep growing.
    meters.decision('tool', 'allow');
    expect(await value(reader, decisions, { ...tool, 'mcp_warden.decision': 'allow' })).toBe(4);
    meters.close();
  });

  it("keeps two servers' series apart in one app", async () => {
    register();
    const one = new McpTelemetryMetrics(counts, { 'mcp.server.name': 'one' });
    const two = new McpTelemetryMetrics(counts, { 'mcp.server.name': 'two' });
    one.decision('tool', 'allow');
    for (let i = 0; i < 2; i++) two.decision('tool', 'allow');
    const name = 'mcp_warden.seam.decisions';
    expect(await value(reader, name, { 'mcp.server.name': 'one' })).toBe(1);
    expect(await value(reader, name, { 'mcp.server.name': 'two' })).toBe(2);
    one.close();
    two.close();
  });

  it('hands a delta exporter what was counted since its last collection', async () => {
    register(AggregationTemporality.DELTA);
    const meters = new McpTelemetryMetrics(counts, { 'mcp.server.name': 'one' });
    for (let i = 0; i < 5; i++) meters.decision('tool', 'allow');
    const name = 'mcp_warden.seam.decisions';
    expect(await value(reader, name, { 'mcp_warden.decision': 'allow' })).toBe(5);
    meters.decision('tool', 'allow');
    expect(await value(reader, name, { 'mcp_warden.decision': 'allow' })).toBe(1);
    meters.close();
  });
});
