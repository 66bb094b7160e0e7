import { Injectable, Module } from '@nestjs/common';

/**
 * The example's configuration, read from the environment once. An app with
 * `@nestjs/config` injects `ConfigService` the same way (docs/configuration.md,
 * `McpModule.forRootAsync()`).
 */
@Injectable()
export class TicketsConfig {
  readonly mcpPath = process.env.TICKETS_MCP_PATH ?? '/mcp';
  readonly allowedOrigins = (process.env.TICKETS_ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  readonly toolTimeoutMs = Number(process.env.TICKETS_TOOL_TIMEOUT_MS ?? 10_000);
}

@Module({ providers: [TicketsConfig], exports: [TicketsConfig] })
export class TicketsConfigModule {}
