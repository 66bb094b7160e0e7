import {
  createNoopMeter,
  metrics,
  type Attributes,
  type BatchObservableCallback,
  type Counter,
  type Histogram,
  type Meter,
  type ObservableGauge,
} from '@opentelemetry/api';
import { ATTR, DURATION_BUCKETS, INSTRUMENTATION_SCOPE, METRIC } from './telemetry.constants.js';

/** The live counts the gauges report (`McpWarden.stats()` and the parked approvals). */
export interface McpLiveCounts {
  connections: number;
  inFlight: number;
  pendingClientRequests: number;
  parkedApprovals: number;
}

/**
 * The instruments, made once from the global meter provider. With none
 * registered (the application registers its SDK before it creates the app)
 * they are the API's no-ops, and recording costs next to nothing.
 */
export class McpTelemetryMetrics {
  readonly operationDuration: Histogram;
  readonly sessionDuration: Histogram;
  readonly seamDecisions: Counter;
  readonly approvalOutcomes: Counter;
  /** False when no meter provider was registered: nothing is worth computing attributes for. */
  readonly recording: boolean;
  private readonly meter: Meter;
  private readonly gauges: ObservableGauge[];
  private readonly observe: BatchObservableCallback;
  /** The attributes of each seam and decision seen (both from fixed sets of the framework's). */
  private readonly decisionAttributes = new Map<string, Attributes>();

  /**
   * `server` is every data point's server label (`mcp.server.name`), so the
   * series of several servers in one app stay apart.
   */
  constructor(
    counts: () => McpLiveCounts,
    readonly server: Attributes = {},
  ) {
    this.meter = metrics.getMeter(INSTRUMENTATION_SCOPE);
    const advice = { explicitBucketBoundaries: [...DURATION_BUCKETS] };
    this.operationDuration = this.meter.createHistogram(METRIC.operationDuration, {
      unit: 's',
      description: 'MCP request duration as observed on the receiver.',
      advice,
    });
    this.recording =
      this.operationDuration !== createNoopMeter().createHistogram(METRIC.operationDuration);
    this.sessionDuration = this.meter.createHistogram(METRIC.sessionDuration, {
      unit: 's',
      description: 'The duration of the MCP session as observed on the MCP server.',
      advice,
    });
    this.seamDecisions = this.meter.createCounter(METRIC.seamDecisions, {
      unit: '{decision}',
      description: 'Authorization decisions at the tool and read seams, by seam and decision.',
    });
    this.approvalOutcomes = this.meter.createCounter(METRIC.approvalOutcomes, {
      unit: '{approval}',
      description: 'How approvals (ask decisions put to the user) ended: allow or deny.',
    });
    const gauge = (name: string, unit: string, description: string) =>
      this.meter.createObservableGauge(name, { unit, description });
    const [connections, inFlight, pending, parked] = (this.gauges = [
      gauge(METRIC.connections, '{connection}', 'Live server connections (sessions, pipes).'),
      gauge(METRIC.inFlight, '{request}', 'Requests being served, parked calls included.'),
      gauge(METRIC.pendingClientRequests, '{request}', 'Server-to-client requests unanswered.'),
      gauge(METRIC.parkedApprovals, '{call}', 'Tool calls parked until the user approves.'),
    ]);
    // One pass over the connections per collection serves every gauge.
    this.observe = (result) => {
      const now = counts();
      result.observe(connections, now.connections, server);
      result.observe(inFlight, now.inFlight, server);
      result.observe(pending, now.pendingClientRequests, server);
      result.observe(parked, now.parkedApprovals, server);
    };
    this.meter.addBatchObservableCallback(this.observe, this.gauges);
  }

  /** Stops observing (the app is closing; the meter provider may outlive it). */
  close(): void {
    this.meter.removeBatchObservableCallback(this.observe, this.gauges);
  }

  /*
   * On every call: nothing when no meter provider records, and one attributes object per seam and
   * decision (a handful, made once) when one does.
   */
  decision(seam: string, decision: string): void {
    if (!this.recording) return;
    const key = `${seam}\u0000${decision}`;
    let attributes = this.decisionAttributes.get(key);
    if (!attributes) {
      attributes =
        seam === 'elicitation'
          ? { ...this.server, [ATTR.decision]: decision }
          : { ...this.server, [ATTR.seam]: seam, [ATTR.decision]: decision };
      this.decisionAttributes.set(key, attributes);
    }
    (seam === 'elicitation' ? this.approvalOutcomes : this.seamDecisions).add(1, attributes);
  }
}
