import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  MeterProvider,
  MetricReader,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace';

/*
 * The real OpenTelemetry SDK, registered globally for one test file (a jest
 * worker runs one file at a time): spans into memory, W3C trace context,
 * AsyncLocalStorage context. `dispose()` in afterAll unregisters all of it.
 */
export function registerTracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return {
    exporter,
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    span(name: string): ReadableSpan | undefined {
      return exporter.getFinishedSpans().find((span) => span.name === name);
    },
    async dispose(): Promise<void> {
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/** A pull reader: `collect()` reads every instrument now (cumulative, as Prometheus would). */
class PullReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

/** The real metrics SDK as the global meter provider, read on demand. */
export function registerMetrics() {
  const reader = new PullReader();
  const provider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(provider);
  return {
    /** Every metric the SDK holds now, by name. */
    async collect(): Promise<Map<string, MetricData>> {
      const { resourceMetrics, errors } = await reader.collect();
      if (errors.length > 0) throw errors[0];
      const byName = new Map<string, MetricData>();
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
      }
      return byName;
    },
    async dispose(): Promise<void> {
      await provider.shutdown();
      metrics.disable();
    },
  };
}
