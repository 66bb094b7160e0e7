import { Module } from '@nestjs/common';
import { AdminMcpModule } from './admin-mcp.module.js';
import { PartnerMcpModule } from './partner-mcp.module.js';
import { StatusTools } from './status.tools.js';

/**
 * One Nest app, two MCP servers (docs/several-servers.md): an internal `admin` server and a
 * partner-facing `partner` server, each with its own path, tools, policy, approvals and limits.
 */
@Module({
  imports: [AdminMcpModule, PartnerMcpModule],
  providers: [StatusTools],
})
export class SeveralServersModule {}
