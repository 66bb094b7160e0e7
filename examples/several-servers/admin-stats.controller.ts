import { Controller, Get } from '@nestjs/common';
import { InjectMcpWarden, McpHttpAuth, type McpServerStats, McpWarden } from '../../src/index.js';

/**
 * An app route about the admin server: it injects that server by name, and admits requests
 * through that server's gate (its Host/Origin check and authentication).
 */
@Controller('admin')
@McpHttpAuth('admin')
export class AdminStatsController {
  constructor(@InjectMcpWarden('admin') private readonly admin: McpWarden) {}

  @Get('stats')
  stats(): McpServerStats {
    return this.admin.stats();
  }
}
