import {
  Catch,
  Inject,
  Injectable,
  NotFoundException,
  Scope,
  UseFilters,
  UseGuards,
  UseInterceptors,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { McpExecutionContext, McpTool, type McpToolContext } from '../../src/index.js';
import { NeedsScope, ScopeGuard } from './scope.guard.js';
import { TimingInterceptor } from './timing.interceptor.js';

/** Turns a NotFoundException into the tool's (successful) result. */
@Catch(NotFoundException)
export class NotFoundAsText implements ExceptionFilter {
  catch(exception: NotFoundException, host: ArgumentsHost) {
    const [args] = McpExecutionContext.create(host).getArgs<[{ id: string }]>();
    return `Nothing archived under ${args.id}: ${exception.message}`;
  }
}

const ID_INPUT = {
  type: 'object',
  properties: { id: { type: 'string' }, dryRun: { type: 'boolean' } },
  required: ['id'],
};

/**
 * Request-scoped: a fresh instance per MCP request, and `REQUEST` is the
 * request's McpToolContext. Guards, interceptors and filters work as on a
 * controller.
 */
@Injectable({ scope: Scope.REQUEST })
@UseInterceptors(TimingInterceptor)
export class ArchiveTools {
  constructor(@Inject(REQUEST) private readonly request: McpToolContext) {}

  @McpTool({ description: 'Restore an archived ticket', inputSchema: ID_INPUT })
  @NeedsScope('tickets:restore')
  @UseGuards(ScopeGuard)
  @UseFilters(NotFoundAsText)
  restore({ id, dryRun }: { id: string; dryRun?: boolean }) {
    if (!id.startsWith('A-')) throw new NotFoundException(`unknown id ${id}`);
    const who = this.request.principal?.subject ?? 'anonymous';
    return dryRun ? `Would restore ${id} for ${who}` : `Restored ${id} for ${who}`;
  }
}
