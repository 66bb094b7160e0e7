import { logs, SeverityNumber, type Logger } from '@opentelemetry/api';
import type { McpAuditEntry, McpAuditSink } from '../audit-sink.interface.js';

/**
 * OpenTelemetry logs through the logs API: one log record per audit record, its body the
 * chained line, so a collector keeps exactly what `audit verify` checks. The app's
 * `LoggerProvider` (OTel's SDK, with the exporter it chooses) sends them; with none
 * registered this is the API's no-op. Emitting never blocks; delivery is the SDK's, so this
 * sink never counts toward `failClosed`.
 */
export class OtelLogsSink implements McpAuditSink {
  readonly name = 'otel-logs';
  /*
   * An emitted log record sits in the SDK's buffer until its exporter sends it, or nowhere when
   * no provider is registered, and the logs API tells neither: `failClosed` cannot wait on it.
   */
  readonly keeps = false;
  private logger?: Logger;

  async write(entries: readonly McpAuditEntry[]): Promise<void> {
    // Fetched at first write: the app may register its provider after the module is built.
    this.logger ??= logs.getLogger('mcp-warden');
    for (const { line, record, instance, seq } of entries) {
      const event = record as { principal?: string; name?: string; decision?: string };
      this.logger.emit({
        eventName: `mcp_warden.audit.${record.kind}`,
        severityNumber: SeverityNumber.INFO,
        severityText: 'INFO',
        body: line,
        attributes: {
          'mcp_warden.audit.instance': instance,
          'mcp_warden.audit.seq': seq,
          ...(event.name ? { 'mcp_warden.audit.name': event.name } : {}),
          ...(event.decision ? { 'mcp_warden.audit.decision': event.decision } : {}),
          ...(event.principal ? { 'enduser.id': event.principal } : {}),
        },
      });
    }
  }
}
