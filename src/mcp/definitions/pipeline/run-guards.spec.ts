import { ForbiddenException, type CanActivate } from '@nestjs/common';
import { of } from 'rxjs';
import { McpExecutionContext } from './mcp-execution-context.js';
import { runGuards } from './run-guards.js';

const context = new McpExecutionContext([{ text: 'x' }, {}]);
const guard = (
  answer: ReturnType<CanActivate['canActivate']>,
  log?: string[],
  name = '',
): CanActivate => ({
  canActivate: () => {
    log?.push(name);
    return answer;
  },
});

describe('runGuards', () => {
  it('answers synchronously while every guard does', () => {
    expect(runGuards([guard(true), guard(true)], context)).toBe(true);
    expect(runGuards([], context)).toBe(true);
  });

  it('throws ForbiddenException synchronously when a synchronous guard refuses', () => {
    const log: string[] = [];
    expect(() => runGuards([guard(false, log, 'a'), guard(true, log, 'b')], context)).toThrow(
      ForbiddenException,
    );
    expect(log).toEqual(['a']);
  });

  it('lets a synchronous throw through as thrown', () => {
    const boom = new Error('denied by policy');
    const throwing: CanActivate = {
      canActivate: () => {
        throw boom;
      },
    };
    expect(() => runGuards([throwing], context)).toThrow(boom);
  });

  it('goes asynchronous only from the first promise or observable, in order', async () => {
    const log: string[] = [];
    const guards = [
      guard(true, log, 'sync'),
      guard(Promise.resolve(true), log, 'promise'),
      guard(of(true), log, 'observable'),
    ];
    const passed = runGuards(guards, context);
    expect(passed).toBeInstanceOf(Promise);
    await expect(passed).resolves.toBe(true);
    expect(log).toEqual(['sync', 'promise', 'observable']);
  });

  it('rejects with ForbiddenException when an asynchronous guard refuses', async () => {
    await expect(runGuards([guard(of(false))], context)).rejects.toBeInstanceOf(ForbiddenException);
  });
});
