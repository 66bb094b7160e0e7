import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { MCP_OPTIONS } from '../../options/options.constants.js';
import type { McpResolvedOptions } from '../../options/resolved-options.interface.js';
import { McpWarden } from '../../server/mcp-warden.service.js';

/**
 * The network boot check: an HTTP server refuses to boot unless an operator
 * configured both seams. A framework default is not a decision, so a tool
 * authorizer with `authorizerSource: 'default'` does not count.
 */
@Injectable()
export class McpHttpBootCheck implements OnApplicationBootstrap {
  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly server: McpWarden,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.options.requireAuthorization) return;
    const missing: string[] = [];
    if (!this.server.authorizationConfigured()) {
      missing.push("a configured tool authorizer (authorizer with authorizerSource: 'configured')");
    }
    if (!this.server.readAuthorizationConfigured())
      missing.push('a read authorizer (readAuthorizer)');
    if (missing.length > 0) {
      throw new Error(`MCP HTTP transport refuses to boot: missing ${missing.join(' and ')}`);
    }
  }
}
