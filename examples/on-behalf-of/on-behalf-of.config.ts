import { Injectable, Module } from '@nestjs/common';

/** A setting the example cannot guess: boot stops with its name rather than run half set up. */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`on-behalf-of example: set ${name}`);
  return value;
}

/**
 * The example's configuration, read from the environment once. An app with `@nestjs/config`
 * injects `ConfigService` the same way (docs/configuration.md, `McpModule.forRootAsync()`).
 */
@Injectable()
export class OnBehalfOfConfig {
  /** The OpenID Provider that issues the callers' tokens and exchanges them. */
  readonly issuer = required('ON_BEHALF_OF_ISSUER');
  /** This server's own URL: the audience its callers' tokens must name. */
  readonly audience =
    process.env.ON_BEHALF_OF_AUDIENCE ?? `http://127.0.0.1:${process.env.PORT ?? 3002}/mcp`;
  /** The server's confidential client at the issuer, allowed the token exchange grant. */
  readonly clientId = process.env.ON_BEHALF_OF_CLIENT_ID ?? 'mcp-tickets';
  readonly clientSecret = required('ON_BEHALF_OF_CLIENT_SECRET');
  /** Where the tickets API answers, without a trailing slash. */
  readonly ticketsApiUrl = required('ON_BEHALF_OF_TICKETS_API_URL').replace(/\/+$/, '');
  /** The audience the tickets API accepts: an identifier, which need not be its URL. */
  readonly ticketsApiAudience = process.env.ON_BEHALF_OF_TICKETS_API_AUDIENCE ?? this.ticketsApiUrl;
}

@Module({ providers: [OnBehalfOfConfig], exports: [OnBehalfOfConfig] })
export class OnBehalfOfConfigModule {}
