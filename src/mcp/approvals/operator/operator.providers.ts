import type { Provider } from '@nestjs/common';
import { MCP_SHARED_STORES, type McpSharedStores } from '../stores/shared-stores.interface.js';
import { MCP_OPTIONS } from '../../core/options/options.constants.js';
import type { McpApprovalsSettings } from '../approvals-settings.interface.js';
import { MCP_APPROVAL_STORE } from '../stores/approval-store.interface.js';
import { MemoryApprovalStore } from '../stores/memory-approval.store.js';
import { McpOperatorApprovals } from './operator-approvals.service.js';
import { McpOperatorDeskService } from './operator-desk.service.js';
import { MCP_OPERATOR_DESK } from './operator-desk.interface.js';

/**
 * Four-eyes approvals (docs/operator-approvals.md): the approval store (the application's
 * own, else cluster mode's shared one, else in memory), what the ask router waits on, and the
 * desk operators decide through.
 */
export const OPERATOR_PROVIDERS: Provider[] = [
  {
    provide: MCP_APPROVAL_STORE,
    useFactory: (options: McpApprovalsSettings, shared: McpSharedStores | null) => {
      const bounds = {
        maxPending: options.approvals.maxPending,
        maxPerCaller: options.limits.maxPendingPerPrincipal,
      };
      if (options.approvals.store) return options.approvals.store;
      return shared ? shared.approvalStore(bounds) : new MemoryApprovalStore(bounds);
    },
    inject: [MCP_OPTIONS, MCP_SHARED_STORES],
  },
  McpOperatorApprovals,
  McpOperatorDeskService,
  { provide: MCP_OPERATOR_DESK, useExisting: McpOperatorDeskService },
];
