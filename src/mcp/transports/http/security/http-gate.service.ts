import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { McpHttpAuthenticator } from '../../../authentication/http-authenticator.service.js';
import type { McpPrincipal } from '../../../authentication/principal.interface.js';
import type { MaybePromise } from '../../../core/common/maybe-promise.js';
import { McpHttpError } from '../../../core/http/mcp-http.error.js';
import { MCP_HTTP_SETTINGS, type McpHttpSettings } from '../http-settings.js';
import { OriginPolicy } from './origin-policy.js';

/**
 * The checks every MCP HTTP request passes before anything else is done for
 * it (before its body is read or its session looked up): `Host` and `Origin`
 * (DNS-rebinding protection), then authentication. One gate serves every MCP
 * route. Without authentication configured it stays synchronous.
 */
@Injectable()
export class McpHttpGate {
  private readonly origins: OriginPolicy;

  constructor(
    @Inject(MCP_HTTP_SETTINGS) settings: McpHttpSettings,
    private readonly authenticator: McpHttpAuthenticator,
  ) {
    this.origins = new OriginPolicy(settings.allowedHosts, settings.allowedOrigins);
  }

  /** The caller (undefined when anonymous); throws the refusal (403, 401). */
  admit(req: IncomingMessage): MaybePromise<McpPrincipal | undefined> {
    const refusal = this.origins.refusal(req.headers.host, req.headers.origin);
    if (refusal) throw new McpHttpError(403, `Forbidden: ${refusal}`);
    return this.authenticator.enabled ? this.authenticator.authenticate(req) : undefined;
  }
}
