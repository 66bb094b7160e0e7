import type { Provider } from '@nestjs/common';
import { MCP_APPROVAL_GATE } from '../engine/tools/approval-gate.interface.js';
import { McpAskRouter } from './ask.router.js';
import { McpApprovals } from './caller/mcp-approvals.service.js';
import { OPERATOR_PROVIDERS } from './operator/operator.providers.js';

/** Approvals: the caller's, the operator desk's, and the gate the engine hands asks to. */
export const APPROVALS_PROVIDERS: Provider[] = [
  McpApprovals,
  McpAskRouter,
  { provide: MCP_APPROVAL_GATE, useExisting: McpAskRouter },
  ...OPERATOR_PROVIDERS,
];
