import { Inject, Injectable, Optional, type OnModuleInit } from '@nestjs/common';
import { MCP_HTTP_MOUNTED, MCP_OPTIONS } from '../core/options/options.constants.js';
import type { McpResolvedOptions } from './resolved-options.interface.js';

/**
 * Fails boot when the options ask for HTTP but the routes were not mounted,
 * which happens when `forRootAsync`'s factory returns `transport: 'http'`
 * without the same `transport` beside the factory. Otherwise the app would
 * boot and answer every MCP request with 404.
 */
@Injectable()
export class McpTransportCheck implements OnModuleInit {
  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions,
    @Optional() @Inject(MCP_HTTP_MOUNTED) private readonly mounted?: boolean,
  ) {}

  onModuleInit(): void {
    if (this.options.transport === 'http' && !this.mounted) {
      throw new Error(
        "McpModule: the options say transport 'http', but the HTTP routes are not mounted. " +
          "With forRootAsync, put transport: 'http' beside useFactory: " +
          "McpModule.forRootAsync({ transport: 'http', useFactory, inject })",
      );
    }
  }
}
