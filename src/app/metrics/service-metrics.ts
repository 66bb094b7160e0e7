import { metrics } from '@opentelemetry/api';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider } from '@opentelemetry/sdk-metrics';

/** The service's name on its metrics (`service_name`): OTEL_SERVICE_NAME, as every SDK reads it. */
const SERVICE_NAME = 'mcp-warden-notes';

/**
 * The service's metrics pipeline: the OpenTelemetry metrics SDK, read on
 * demand by the Prometheus exporter's reader (its own HTTP server never
 * starts: `/metrics` is served by the app, on the MCP listener, behind the
 * MCP auth). The framework itself only speaks the OpenTelemetry API; this is
 * where the service plugs an SDK into it.
 */
export class ServiceMetrics {
  private readonly serializer = new PrometheusSerializer();

  constructor(private readonly reader: PrometheusExporter) {}

  /** Collects every instrument now and renders the Prometheus text exposition format. */
  async scrape(): Promise<string> {
    const { resourceMetrics } = await this.reader.collect();
    return this.serializer.serialize(resourceMetrics);
  }
}

let registered: ServiceMetrics | undefined;

/**
 * Registers the global meter provider, once per process. It must run before
 * the app is created: the framework takes its instruments from the global
 * provider when it boots.
 */
export function registerServiceMetrics(): ServiceMetrics {
  if (registered) return registered;
  const reader = new PrometheusExporter({ preventServerStart: true });
  // Without a resource naming the service, every series says unknown_service:node.
  const resource = defaultResource().merge(
    resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME || SERVICE_NAME }),
  );
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader], resource }));
  registered = new ServiceMetrics(reader);
  return registered;
}
