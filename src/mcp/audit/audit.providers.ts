import type { Provider } from '@nestjs/common';
import { MCP_AUDIT_JOURNAL } from '../authorization/audit/audit-journal.interface.js';
import { MCP_OPTIONS } from '../core/options/options.constants.js';
import type { McpAuditSettings } from './audit-options.interface.js';
import { McpAuditJournalService } from './journal/audit-journal.service.js';

/** The journal that fills the audit's port when the app gives `audit.sinks`; else null. */
export const AUDIT_PROVIDERS: Provider[] = [
  {
    provide: MCP_AUDIT_JOURNAL,
    inject: [MCP_OPTIONS],
    useFactory: (options: McpAuditSettings) =>
      options.audit?.sinks?.length ? new McpAuditJournalService(options.name, options.audit) : null,
  },
];
