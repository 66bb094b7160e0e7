import { Module } from '@nestjs/common';
import { McpModule } from '../../src/index.js';
import { TicketsConfig, TicketsConfigModule } from './tickets.config.js';
import { ticketsReadPolicy, ticketsToolPolicy } from './tickets.policy.js';
import { TicketsPrompts } from './tickets.prompts.js';
import { TicketsResources } from './tickets.resources.js';
import { TicketsStore } from './tickets.store.js';
import { TicketsTools } from './tickets.tools.js';

/** The tickets MCP server over HTTP, its options built from injected configuration. */
@Module({
  imports: [
    McpModule.forRootAsync({
      // Beside the factory: the HTTP routes are declared before the factory runs.
      transport: 'http',
      imports: [TicketsConfigModule],
      inject: [TicketsConfig],
      useFactory: (config: TicketsConfig) => ({
        name: 'tickets',
        version: '1.0.0',
        instructions: 'Support tickets: find, open and (with approval) close them.',
        transport: 'http',
        authorizer: ticketsToolPolicy,
        authorizerSource: 'configured', // an operator chose this policy
        readAuthorizer: ticketsReadPolicy,
        http: { path: config.mcpPath, allowedOrigins: config.allowedOrigins },
        limits: { toolTimeoutMs: config.toolTimeoutMs },
      }),
    }),
  ],
  providers: [TicketsStore, TicketsTools, TicketsResources, TicketsPrompts],
})
export class TicketsModule {}
