import type { Provider } from '@nestjs/common';
import { McpAuditService } from './audit/mcp-audit.service.js';
import { McpAuthorizationService } from './mcp-authorization.service.js';
import { ReadSeamGuard } from './read-seam.guard.js';
import { ToolSeamGuard } from './tool-seam.guard.js';

/** The two authorization seams: their guards, their decisions and the audit stream. */
export const AUTHORIZER_PROVIDERS: Provider[] = [
  McpAuthorizationService,
  McpAuditService,
  ToolSeamGuard,
  ReadSeamGuard,
];
