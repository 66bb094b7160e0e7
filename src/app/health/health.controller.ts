import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { StoreHealthIndicator } from './store.health.js';

/**
 * Liveness (`/health`: the process is up and serving HTTP) and readiness
 * (`/ready`: what a call needs answers, 503 while it does not), the two
 * probes an orchestrator or load balancer asks.
 */
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly store: StoreHealthIndicator,
  ) {}

  @Get('health')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check([() => this.store.check()]);
  }
}
