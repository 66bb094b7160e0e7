import { Module } from '@nestjs/common';
import { Authorizers, McpModule } from '../../src/index.js';
import { MyTicketsTools } from './my-tickets.tools.js';
import { OnBehalfOfConfig, OnBehalfOfConfigModule } from './on-behalf-of.config.js';
import { TicketsApiClient } from './tickets-api.client.js';

/**
 * An MCP server over HTTP whose tool calls the tickets API as its caller (RFC 8693 token
 * exchange, docs/token-exchange.md), its options built from injected configuration.
 */
@Module({
  imports: [
    OnBehalfOfConfigModule, // for the tool and the API client
    McpModule.forRootAsync({
      // Beside the factory: the HTTP routes are declared before the factory runs.
      transport: 'http',
      imports: [OnBehalfOfConfigModule],
      inject: [OnBehalfOfConfig],
      useFactory: (config: OnBehalfOfConfig) => ({
        name: 'on-behalf-of',
        version: '1.0.0',
        instructions: "Reads the caller's tickets from the tickets API, as the caller.",
        transport: 'http',
        // Every call is allowed here: who may see which tickets is the tickets API's to
        // decide, from the exchanged token's subject. An app with more tools writes a policy.
        authorizer: Authorizers.allowAll(),
        authorizerSource: 'configured', // an operator chose this policy
        readAuthorizer: Authorizers.allowAll(),
        http: {
          auth: {
            issuer: config.issuer,
            audience: config.audience,
            // The server's own client at the issuer: the secret never reaches a tool.
            tokenExchange: { clientId: config.clientId, clientSecret: config.clientSecret },
          },
        },
      }),
    }),
  ],
  providers: [TicketsApiClient, MyTicketsTools],
})
export class OnBehalfOfModule {}
