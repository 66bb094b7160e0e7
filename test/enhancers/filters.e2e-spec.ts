import {
  BadRequestException,
  Catch,
  ForbiddenException,
  Injectable,
  NotFoundException,
  UseFilters,
  UseGuards,
  type ArgumentsHost,
  type CanActivate,
  type ExceptionFilter,
} from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { of } from 'rxjs';
import { JsonRpcErrorCode, McpResource, McpTool, McpToolError } from '../../src/index.js';
import { McpExecutionContext } from '../../src/mcp/definitions/pipeline/mcp-execution-context.js';
import { createEnhancersApp, textOf, type EnhancersApp } from './enhancers-app.js';

/*
 * Exception filters on tool and resource methods (their own and the app's
 * global ones) see what the method, its guards and its pipes throw; what a
 * filter returns is the result, what it throws goes on to the server's
 * mapping of tool errors.
 */

const ANY_INPUT = { type: 'object' };
const hosts: { type: string; args: unknown }[] = [];

@Catch(NotFoundException)
class NotFoundToText implements ExceptionFilter {
  catch(exception: NotFoundException, host: ArgumentsHost) {
    const mcp = McpExecutionContext.create(host);
    hosts.push({ type: host.getType(), args: mcp.getArgByIndex(0) });
    return `nothing here: ${exception.message}`;
  }
}

@Catch(ForbiddenException)
class ForbiddenToText implements ExceptionFilter {
  async catch() {
    return 'you may not, politely';
  }
}

@Catch()
class RethrowAsToolError implements ExceptionFilter {
  catch(exception: Error) {
    throw new McpToolError(`sorry: ${exception.message}`);
  }
}

/** A global catch-all, answering with an observable. */
@Catch()
class RecoverEverything implements ExceptionFilter {
  catch(exception: Error, host: ArgumentsHost) {
    hosts.push({ type: host.getType(), args: host.getArgByIndex(0) });
    return of(`recovered from ${exception.message}`);
  }
}

class NeverGuard implements CanActivate {
  canActivate() {
    return false;
  }
}

@Injectable()
class FilteredTools {
  @McpTool({ description: 'Finds nothing', input: ANY_INPUT })
  @UseFilters(NotFoundToText)
  find(args: { id?: string }) {
    throw new NotFoundException(`note ${args.id}`);
  }

  @McpTool({ description: 'Refuses with a message for the caller', input: ANY_INPUT })
  @UseFilters(NotFoundToText)
  reject() {
    throw new BadRequestException('title is too long');
  }

  @McpTool({ description: 'Guarded out, then filtered', input: ANY_INPUT })
  @UseGuards(NeverGuard)
  @UseFilters(ForbiddenToText)
  guarded() {
    return 'unreachable';
  }

  @McpTool({ description: 'Fails, rethrown by its filter', input: ANY_INPUT })
  @UseFilters(RethrowAsToolError)
  rethrown() {
    throw new Error('disk full');
  }

  @McpResource({ uri: 'notes://missing', name: 'missing' })
  @UseFilters(NotFoundToText)
  missing() {
    throw new NotFoundException('missing note');
  }
}

describe('exception filters', () => {
  let t: EnhancersApp | undefined;

  beforeEach(() => {
    hosts.length = 0;
  });

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('@UseFilters on a tool turns a thrown NotFoundException into its result', async () => {
    t = await createEnhancersApp([FilteredTools]);
    const result = await t.callTool('find', { id: 'n1' });
    expect(result).toEqual({ content: [{ type: 'text', text: 'nothing here: note n1' }] });
    expect(hosts).toEqual([{ type: 'mcp', args: { id: 'n1' } }]);
  });

  it('an HttpException no filter catches reaches the caller as isError text', async () => {
    t = await createEnhancersApp([FilteredTools]);
    const result = await t.callTool('reject');
    expect(result).toEqual({
      content: [{ type: 'text', text: 'title is too long' }],
      isError: true,
    });
    expect(hosts).toEqual([]);
  });

  it("a filter sees the guard's refusal, and an async filter's value is the result", async () => {
    t = await createEnhancersApp([FilteredTools]);
    expect(textOf(await t.callTool('guarded'))).toBe('you may not, politely');
  });

  it('what a filter throws goes on to the tool error mapping', async () => {
    t = await createEnhancersApp([FilteredTools]);
    expect(await t.callTool('rethrown')).toEqual({
      content: [{ type: 'text', text: 'sorry: disk full' }],
      isError: true,
    });
  });

  it('a filter on a resource method turns its error into the resource text', async () => {
    t = await createEnhancersApp([FilteredTools]);
    const read = await t.result('resources/read', { uri: 'notes://missing' });
    expect(read.contents).toEqual([
      expect.objectContaining({ uri: 'notes://missing', text: 'nothing here: missing note' }),
    ]);
  });

  it('an APP_FILTER applies to tools (observable results too) but never to protocol errors', async () => {
    t = await createEnhancersApp([
      FilteredTools,
      { provide: APP_FILTER, useClass: RecoverEverything },
    ]);
    // The method's own filter is chosen first for what it catches.
    expect(textOf(await t.callTool('find', { id: 'n2' }))).toBe('nothing here: note n2');
    expect(textOf(await t.callTool('reject', { why: 'test' }))).toBe(
      'recovered from title is too long',
    );
    expect(hosts).toEqual([
      { type: 'mcp', args: { id: 'n2' } },
      { type: 'mcp', args: { why: 'test' } },
    ]);

    const unknown = await t.request('tools/call', { name: 'no_such_tool' });
    expect(unknown.error.code).toBe(JsonRpcErrorCode.InvalidParams);
    const notFound = await t.request('resources/read', { uri: 'notes://nowhere' });
    expect(notFound.error).toBeDefined();
  });

  it('app.useGlobalFilters() after init() applies to tools', async () => {
    t = await createEnhancersApp([FilteredTools], {
      afterInit: (app) => app.useGlobalFilters(new RecoverEverything()),
    });
    expect(textOf(await t.callTool('reject'))).toBe('recovered from title is too long');
  });
});
