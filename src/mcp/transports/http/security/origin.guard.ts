import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { McpHttpError } from '../errors/mcp-http.error.js';
import { MCP_HTTP_OPTIONS, type ResolvedHttpOptions } from '../http-options.js';
import { OriginPolicy } from './origin-policy.js';

/** Validates `Host` and `Origin` on every MCP route: foreign → 403 with a JSON-RPC body. */
@Injectable()
export class McpOriginGuard implements CanActivate {
  protected readonly policy: OriginPolicy;

  constructor(@Inject(MCP_HTTP_OPTIONS) options: ResolvedHttpOptions) {
    this.policy = new OriginPolicy(options.allowedHosts, options.allowedOrigins);
  }

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    const refusal = this.policy.refusal(req.headers.host, req.headers.origin);
    if (refusal) throw new McpHttpError(403, `Forbidden: ${refusal}`);
    return true;
  }
}
