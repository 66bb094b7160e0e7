import { Injectable, type OnModuleInit } from '@nestjs/common';
import { McpRegistry } from '../../src/index.js';

/** Tools defined at runtime; every change sends `notifications/tools/list_changed`. */
@Injectable()
export class FeatureFlagTools implements OnModuleInit {
  constructor(private readonly registry: McpRegistry) {}

  onModuleInit(): void {
    this.enable('ping');
  }

  enable(name: string): void {
    this.registry.registerTool({
      name,
      description: `Feature-flagged tool ${name}`,
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true },
      handler: (_args, ctx) => `${name} from ${ctx.connId}`,
    });
  }

  disable(name: string): boolean {
    return this.registry.unregisterTool(name);
  }
}
