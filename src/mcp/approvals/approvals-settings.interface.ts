import type { McpPolicySettings } from '../policy/policy-settings.interface.js';
import type { McpApprovalStore } from './stores/approval-store.interface.js';
import type {
  McpApprovalsConsoleOptions,
  McpApprovalsWebhookOptions,
} from './operator/approvals-options.interface.js';

/** Four-eyes approvals with every default applied (docs/operator-approvals.md). */
export interface ResolvedApprovalsOptions {
  /** The scope an operator must hold (`approvals.console.scope`, default `mcp:approve`). */
  readonly scope: string;
  /** Where the console is served (`approvals.console.path`, default `/approvals`). */
  readonly path: string;
  readonly maxPending: number;
  /** How long a handshake-era call waits for an operator before it answers pending. */
  readonly answerWithinMs: number;
  readonly console?: McpApprovalsConsoleOptions;
  readonly webhook?: McpApprovalsWebhookOptions;
  /** The application's own approval store (`approvals.store`), when it gave one. */
  readonly store?: McpApprovalStore;
}

/** The resolved options as approvals and the layers above them read them. */
export interface McpApprovalsSettings extends McpPolicySettings {
  readonly approvals: ResolvedApprovalsOptions;
}
