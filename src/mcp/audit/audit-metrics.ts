import { metrics, type Counter } from '@opentelemetry/api';

/**
 * The audit's instruments, from the global meter provider (Prometheus renders them
 * `mcp_warden_audit_records_total{sink}`, `mcp_warden_audit_dropped_total{sink}` and
 * `mcp_warden_audit_write_failures_total{sink}`). With no provider they are no-ops.
 */
export class McpAuditMetrics {
  private readonly kept: Counter;
  private readonly drops: Counter;
  private readonly failures: Counter;

  /** `server`: every data point's server label (`mcp.server.name`). */
  constructor(private readonly server: Readonly<Record<string, string>> = {}) {
    const meter = metrics.getMeter('mcp-warden');
    this.kept = meter.createCounter('mcp_warden.audit.records', {
      description: 'Audit records a sink kept.',
    });
    this.drops = meter.createCounter('mcp_warden.audit.dropped', {
      description: 'Audit records dropped because a sink fell too far behind.',
    });
    this.failures = meter.createCounter('mcp_warden.audit.write_failures', {
      description: 'Audit batches a sink failed to write (each is retried).',
    });
  }

  recordsKept(sink: string, count: number): void {
    this.kept.add(count, { ...this.server, sink });
  }

  dropped(sink: string, count: number): void {
    this.drops.add(count, { ...this.server, sink });
  }

  writeFailed(sink: string): void {
    this.failures.add(1, { ...this.server, sink });
  }
}
