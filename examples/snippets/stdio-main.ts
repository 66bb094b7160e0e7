import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { McpModule, serveStdio } from '../../src/index.js';
import { ticketsReadPolicy, ticketsToolPolicy } from '../tickets/tickets.policy.js';
import { TicketsStore } from '../tickets/tickets.store.js';
import { TicketsTools } from '../tickets/tickets.tools.js';

@Module({
  imports: [
    McpModule.forRoot({
      name: 'tickets',
      version: '1.0.0',
      transport: 'stdio',
      authorizer: ticketsToolPolicy,
      authorizerSource: 'configured',
      readAuthorizer: ticketsReadPolicy,
    }),
  ],
  providers: [TicketsStore, TicketsTools],
})
export class StdioAppModule {}

/** Serves until stdin ends or SIGTERM/SIGINT; stdout carries protocol messages only. */
export function main(): Promise<void> {
  return serveStdio(StdioAppModule).then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`tickets: ${(error as Error).message}\n`); // a boot refusal, say
      process.exit(1);
    },
  );
}
