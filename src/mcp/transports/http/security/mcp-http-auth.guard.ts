import {
  applyDecorators,
  Inject,
  Injectable,
  UseFilters,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { McpHttpExceptionFilter } from '../errors/mcp-http-exception.filter.js';
import { McpHttpGate } from './http-gate.service.js';
import { namedServerToken } from '../../../core/servers/server-tokens.js';

/**
 * Admits a request to an application route exactly as the MCP endpoint
 * would: the `Host`/`Origin` check, then authentication when `http.auth` or
 * `http.authenticate` is configured.
 */
@Injectable()
export class McpHttpAuthGuard implements CanActivate {
  constructor(protected readonly gate: McpHttpGate) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<object>();
    const raw = (request as { raw?: IncomingMessage }).raw ?? (request as IncomingMessage);
    await this.gate.admit(raw);
    return true;
  }
}

/**
 * Puts an application route (a metrics scrape, an admin page) behind the
 * same gate as `/mcp`: 403 for a foreign `Host` or `Origin`, and with auth on
 * 401 (with the same `WWW-Authenticate` challenge) for a caller without valid
 * credentials. Refusals are answered as the MCP endpoint answers them.
 *
 * In an app with several servers, name the server whose gate admits the
 * route: `@McpHttpAuth('admin')`.
 *
 * @example
 * @Controller('metrics')
 * @McpHttpAuth()
 * export class MetricsController {}
 *
 * @publicApi
 */
export function McpHttpAuth(server?: string): ClassDecorator & MethodDecorator {
  const guard = server === undefined ? McpHttpAuthGuard : namedGuard(server);
  return applyDecorators(UseGuards(guard), UseFilters(McpHttpExceptionFilter));
}

/* One guard class per server name, injecting that server's gate; the classes hold no state. */
const namedGuards = new Map<string, typeof McpHttpAuthGuard>();

function namedGuard(server: string): typeof McpHttpAuthGuard {
  let guard = namedGuards.get(server);
  if (!guard) {
    @Injectable()
    class McpNamedHttpAuthGuard extends McpHttpAuthGuard {
      constructor(@Inject(namedServerToken('McpHttpGate', server)) gate: McpHttpGate) {
        super(gate);
      }
    }
    guard = McpNamedHttpAuthGuard;
    namedGuards.set(server, guard);
  }
  return guard;
}
