import type { Provider } from '@nestjs/common';
import { MCP_AUDIT_JOURNAL } from '../authorization/audit/audit-journal.interface.js';
import { MCP_OPTIONS } from '../core/options/options.constants.js';
import type { McpAuditSettings } from './audit-options.interface.js';
import { McpAuditJournalService } from './journal/audit-journal.service.js';
import { MCP_AUDIT_VIEW } from './audit-view.interface.js';
import {
  MCP_CLUSTER_CHECKPOINTS,
  type McpClusterCheckpoints,
} from './publishers/cluster-checkpoints.interface.js';

/** The journal that fills the audit's port when the app gives `audit.sinks`, else null; and its view. */
export const AUDIT_PROVIDERS: Provider[] = [
  {
    provide: MCP_AUDIT_JOURNAL,
    inject: [MCP_OPTIONS, { token: MCP_CLUSTER_CHECKPOINTS, optional: true }],
    useFactory: (options: McpAuditSettings, cluster: McpClusterCheckpoints = null) =>
      options.audit?.sinks?.length
        ? new McpAuditJournalService(options.name, options.audit, cluster)
        : null,
  },
  // The console's read of it: the same instance.
  { provide: MCP_AUDIT_VIEW, useExisting: MCP_AUDIT_JOURNAL },
];
