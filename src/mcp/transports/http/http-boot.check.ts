import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../../mcp.module-definition.js';
import type { McpModuleOptions } from '../../mcp-options.interface.js';
import { McpWarden } from '../../server/mcp-warden.service.js';

/** Whether the network boot guard is armed: the option, else on unless NODE_ENV says development/test. */
export function requiresAuthorization(options: McpModuleOptions): boolean {
  if (options.requireAuthorization !== undefined) return options.requireAuthorization;
  return !['development', 'test'].includes(process.env.NODE_ENV ?? '');
}

/**
 * The network boot guard: an HTTP server refuses to boot unless an operator
 * configured both seams. A framework default is not a decision, so a tool
 * authorizer with `authorizerSource: 'default'` does not count.
 */
@Injectable()
export class McpHttpBootCheck implements OnApplicationBootstrap {
  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: McpModuleOptions,
    private readonly server: McpWarden,
  ) {}

  onApplicationBootstrap(): void {
    if (!requiresAuthorization(this.options)) return;
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
