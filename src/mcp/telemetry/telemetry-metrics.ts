import {
  createNoopMeter,
  metrics,
  type Attributes,
  type BatchObservableCallback,
  type Histogram,
  type Meter,
  type Observable,
  type ObservableCounter,
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
  /* Reported by the batch callback from `decisions`; nothing adds to them. */
  private readonly seamDecisions: ObservableCounter;
  private readonly approvalOutcomes: ObservableCounter;
  /** False when no meter provider was registered: nothing is worth computing attributes for. */
  readonly recording: boolean;
  private readonly meter: Meter;
  private readonly observed: Observable[];
  private readonly observe: BatchObservableCallback;
  /**
   * The decisions counted so far, by seam and decision (both from fixed sets of the
   * framework's), with their attributes: reported at each collection, not added per call.
   */
  private readonly decisions = new Map<string, DecisionCount>();

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
    /*
     * Asynchronous counters (the same monotonic sums to an exporter): a synchronous counter's
     * add() has the SDK sort and serialize the attributes to find their series, on every call,
     * which cost about what the call's Cedar decision did (bench: service-http). A count here is
     * one Map hit.
     */
    this.seamDecisions = this.meter.createObservableCounter(METRIC.seamDecisions, {
      unit: '{decision}',
      description: 'Authorization decisions at the tool and read seams, by seam and decision.',
    });
    this.approvalOutcomes = this.meter.createObservableCounter(METRIC.approvalOutcomes, {
      unit: '{approval}',
      description: 'How approvals (ask decisions put to the user) ended: allow or deny.',
    });
    const gauge = (name: string, unit: string, description: string) =>
      this.meter.createObservableGauge(name, { unit, description });
    const gauges = [
      gauge(METRIC.connections, '{connection}', 'Live server connections (sessions, pipes).'),
      gauge(METRIC.inFlight, '{request}', 'Requests being served, parked calls included.'),
      gauge(METRIC.pendingClientRequests, '{request}', 'Server-to-client requests unanswered.'),
      gauge(METRIC.parkedApprovals, '{call}', 'Tool calls parked until the user approves.'),
    ] as const;
    const [connections, inFlight, pending, parked] = gauges;
    this.observed = [...gauges, this.seamDecisions, this.approvalOutcomes];
    // One pass over the connections per collection serves every gauge.
    this.observe = (result) => {
      const now = counts();
      result.observe(connections, now.connections, server);
      result.observe(inFlight, now.inFlight, server);
      result.observe(pending, now.pendingClientRequests, server);
      result.observe(parked, now.parkedApprovals, server);
      for (const { counter, attributes, count } of this.decisions.values()) {
        result.observe(counter, count, attributes);
      }
    };
    this.meter.addBatchObservableCallback(this.observe, this.observed);
  }

  /** Stops observing (the app is closing; the meter provider may outlive it). */
  close(): void {
    this.meter.removeBatchObservableCallback(this.observe, this.observed);
  }

  /*
   * On every call: nothing when no meter provider records, else one more in a count whose
   * attributes were made once per seam and decision (a handful).
   */
  decision(seam: string, decision: string): void {
    if (!this.recording) return;
    const key = `${seam}\u0000${decision}`;
    const known = this.decisions.get(key);
    if (known) {
      known.count++;
      return;
    }
    const approval = seam === 'elicitation';
    this.decisions.set(key, {
      counter: approval ? this.approvalOutcomes : this.seamDecisions,
      attributes: approval
        ? { ...this.server, [ATTR.decision]: decision }
        : { ...this.server, [ATTR.seam]: seam, [ATTR.decision]: decision },
      count: 1,
    });
  }
}

/** One series of the decision counters: its total since the app started. */
interface DecisionCount {
  readonly counter: ObservableCounter;
  readonly attributes: Attributes;
  count: number;
}
