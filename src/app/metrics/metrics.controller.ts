import { Controller, Get, Header, Inject } from '@nestjs/common';
import { McpHttpAuth } from '../../index.js';
import { SERVICE_METRICS } from '../app.constants.js';
import type { ServiceMetrics } from './service-metrics.js';

/**
 * Prometheus scrape endpoint, on the same listener as `/mcp` and behind the
 * same gate: its Host/Origin check, and with bearer auth on, a 401 for a
 * caller without a valid token (the figures say who calls what, how often).
 */
@Controller('metrics')
@McpHttpAuth()
export class MetricsController {
  constructor(@Inject(SERVICE_METRICS) private readonly metrics: ServiceMetrics) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  scrape(): Promise<string> {
    return this.metrics.scrape();
  }
}
