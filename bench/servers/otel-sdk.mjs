// The OpenTelemetry SDK as an application registers it (W3C propagation, AsyncLocalStorage context,
// a tracer provider with a batch span processor, a meter provider with a pull reader), for the
// throughput-http-otel workload: what the telemetry layer costs once something records. The span
// exporter drops what it is given, so the figure is the SDK and the instrumentation, not a network.
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { ExportResultCode, W3CTraceContextPropagator } from '@opentelemetry/core';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

const droppingExporter = {
  export(_spans, done) {
    done({ code: ExportResultCode.SUCCESS });
  },
  shutdown: () => Promise.resolve(),
};

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
trace.setGlobalTracerProvider(
  new TracerProvider({
    spanProcessors: [new BatchSpanProcessor({ exporter: droppingExporter })],
  }),
);
metrics.setGlobalMeterProvider(
  new MeterProvider({ readers: [new PrometheusExporter({ preventServerStart: true })] }),
);
