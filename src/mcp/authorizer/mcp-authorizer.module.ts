import { Module } from '@nestjs/common';
import { McpRegistryModule } from '../registry/mcp-registry.module.js';
import { McpAuditService } from './audit/mcp-audit.service.js';
import { McpAuthorizationService } from './mcp-authorization.service.js';
import { ReadSeamGuard } from './read-seam.guard.js';
import { ToolSeamGuard } from './tool-seam.guard.js';

/** The two authorization seams: their guards, their decisions and the audit stream. */
@Module({
  imports: [McpRegistryModule],
  providers: [McpAuthorizationService, McpAuditService, ToolSeamGuard, ReadSeamGuard],
  exports: [McpAuthorizationService, McpAuditService, ToolSeamGuard, ReadSeamGuard],
})
export class McpAuthorizerModule {}
