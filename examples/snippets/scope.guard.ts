import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { IncomingMessage } from 'node:http';
import { McpExecutionContext } from '../../src/index.js';

export const NeedsScope = (scope: string) => SetMetadata('needs-scope', scope);

/**
 * A guard for tool methods (context type 'mcp') that also works on the app's
 * own controllers. Refusing a tool call answers a tool-deny result
 * (`detail: "forbidden"`); the method does not run.
 */
@Injectable()
export class ScopeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const scope = this.reflector.get<string | undefined>('needs-scope', context.getHandler());
    if (!scope) return true;
    if (context.getType<string>() !== 'mcp') return true; // REST routes: another guard's job
    const mcp = McpExecutionContext.create(context);
    const [args] = mcp.getArgs<[Record<string, unknown>]>(); // the validated arguments
    const ctx = mcp.getContext(); // the McpToolContext
    const request = mcp.switchToHttp().getRequest<IncomingMessage | undefined>(); // HTTP only
    const trusted = request?.headers['x-internal'] === '1' && ctx.transport === 'http';
    return trusted || (mcp.getPrincipal()?.scopes.includes(scope) ?? false) || args.dryRun === true;
  }
}
