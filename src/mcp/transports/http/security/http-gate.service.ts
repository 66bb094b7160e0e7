import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { McpHttpError } from '../errors/mcp-http.error.js';
import { MCP_HTTP_SETTINGS, type McpHttpSettings } from '../http-settings.js';
import { OriginPolicy } from './origin-policy.js';

/**
 * The checks every MCP HTTP request passes before anything else is done for
 * it (before its body is read): `Host` and `Origin` (DNS-rebinding
 * protection). One gate serves every MCP route.
 */
@Injectable()
export class McpHttpGate {
  private readonly origins: OriginPolicy;

  constructor(@Inject(MCP_HTTP_SETTINGS) settings: McpHttpSettings) {
    this.origins = new OriginPolicy(settings.allowedHosts, settings.allowedOrigins);
  }

  /** Throws the refusal (403) for a request that may not reach the MCP routes. */
  check(req: IncomingMessage): void {
    const refusal = this.origins.refusal(req.headers.host, req.headers.origin);
    if (refusal) throw new McpHttpError(403, `Forbidden: ${refusal}`);
  }
}
