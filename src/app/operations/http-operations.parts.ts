import type { ModuleMetadata } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { SERVICE_METRICS } from '../app.constants.js';
import { HealthController } from '../health/health.controller.js';
import { StoreHealthIndicator } from '../health/store.health.js';
import { MetricsController } from '../metrics/metrics.controller.js';
import { registerServiceMetrics } from '../metrics/service-metrics.js';

/** What the app module adds for one deployment: modules, controllers and providers. */
export type AppParts = Pick<ModuleMetadata, 'imports' | 'controllers' | 'providers'>;

/**
 * The service's HTTP-only operations: `/health`, `/ready` (terminus) and
 * `/metrics` (the OpenTelemetry metrics SDK with the Prometheus reader). Only
 * the HTTP entry point imports this file, so a stdio process never loads
 * terminus or the metrics SDK, and its bundle leaves them out.
 */
export function httpOperations(): AppParts {
  // Before the app exists: the framework takes its instruments from the global provider.
  const metrics = registerServiceMetrics();
  return {
    imports: [TerminusModule.forRoot({ logger: false })],
    controllers: [HealthController, MetricsController],
    providers: [StoreHealthIndicator, { provide: SERVICE_METRICS, useValue: metrics }],
  };
}
