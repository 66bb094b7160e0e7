import {
  metrics,
  type Counter,
  type ObservableCallback,
  type ObservableGauge,
} from '@opentelemetry/api';

/* The framework's instrumentation scope (the telemetry layer uses the same). */
const SCOPE = 'mcp-warden';

/**
 * The policy's instruments (DESIGN §6.4), from the global meter provider: Prometheus renders
 * them `mcp_warden_policy_info{version}`, `mcp_warden_policy_shadow_disagreements_total{tool,
 * kind}`, `mcp_warden_policy_errors_total` and `mcp_warden_policy_reload_failures_total`.
 * With no provider registered they are the API's no-ops.
 */
export class McpPolicyMetrics {
  private readonly info: ObservableGauge;
  private readonly shadowDisagreements: Counter;
  private readonly errors: Counter;
  private readonly reloadFailures: Counter;
  private readonly observe: ObservableCallback;

  /** `server`: every data point's server label (`mcp.server.name`). */
  constructor(
    version: () => string | undefined,
    private readonly server: Readonly<Record<string, string>> = {},
  ) {
    const meter = metrics.getMeter(SCOPE);
    this.info = meter.createObservableGauge('mcp_warden.policy.info', {
      description: 'The applied policy set: 1, with its digest as `version`.',
    });
    this.shadowDisagreements = meter.createCounter('mcp_warden.policy.shadow_disagreements', {
      description: 'Decisions where the shadow policy set disagreed, by tool and kind.',
    });
    this.errors = meter.createCounter('mcp_warden.policy.errors', {
      description: 'Policies that failed to evaluate (each then did not apply).',
    });
    this.reloadFailures = meter.createCounter('mcp_warden.policy.reload_failures', {
      description: 'Policy reloads refused because the new set did not validate.',
    });
    this.observe = (result) => {
      const current = version();
      if (current !== undefined) result.observe(1, { ...server, version: current });
    };
    this.info.addCallback(this.observe);
  }

  /** `kind` is `<enforced>_<shadow>`, such as `allow_deny`. */
  disagreement(tool: string, kind: string): void {
    this.shadowDisagreements.add(1, { ...this.server, tool, kind });
  }

  evaluationErrors(count: number): void {
    if (count > 0) this.errors.add(count, this.server);
  }

  reloadFailed(): void {
    this.reloadFailures.add(1, this.server);
  }

  close(): void {
    this.info.removeCallback(this.observe);
  }
}
