import { Module } from '@nestjs/common';
import { McpModule } from '../../src/index.js';
import { ticketsReadPolicy, ticketsToolPolicy } from '../tickets/tickets.policy.js';
import { TicketsStore } from '../tickets/tickets.store.js';
import { TicketsTools } from '../tickets/tickets.tools.js';

/** Every option of `McpModule.forRoot()`, each at a deliberate value. */
@Module({
  imports: [
    McpModule.forRoot({
      name: 'tickets', // serverInfo in `initialize`
      version: '1.0.0',
      instructions: 'Support tickets: find, open and close them.',
      transport: 'http', // 'stdio' | 'http' | 'unknown' (default); 'http' mounts the routes
      authorizer: ticketsToolPolicy, // the tool seam
      authorizerSource: 'configured', // 'default' (the default) fails the network boot check
      readAuthorizer: ticketsReadPolicy, // the read seam
      elicitationTimeoutMs: 120_000, // how long an ask waits for its human (default 60 s)
      stateSecret: process.env.MCP_STATE_SECRET, // seals modern requestState (default: random per process)
      cacheTtlMs: 0, // ttlMs on modern cacheable results (default 0)
      requireAuthorization: true, // the default, in every environment; false disarms the boot check
      pageSize: 50, // items per page of every list (default 100)
      http: {
        path: '/mcp', // Streamable HTTP endpoint (default /mcp)
        allowedHosts: ['tickets.internal:8443'], // besides the loopback names
        allowedOrigins: ['https://console.example.com'], // besides the loopback origins
        keepAliveMs: 15_000, // keep-alive comments on idle SSE streams
        retryMs: 1_000, // the SSE `retry:` hint
        fastPath: 'auto', // Express only: 'auto' (default) | true | false
      },
      limits: { maxBodyBytes: 1024 * 1024, toolTimeoutMs: 30_000 },
      isGlobal: true, // the default; false makes it an ordinary import
    }),
  ],
  providers: [TicketsStore, TicketsTools],
})
export class AppModule {}
