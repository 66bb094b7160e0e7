import { ForbiddenException, type CallHandler, type ExecutionContext } from '@nestjs/common';
import { map, of } from 'rxjs';
import { createInvocation } from './handler-pipeline.js';
import type { McpEnhancers } from './nest-enhancers.resolver.js';

const none: McpEnhancers = { guards: [], interceptors: [], pipes: [], filters: [] };

class Tools {
  calls = 0;
  echo(args: { text: string }) {
    this.calls++;
    return `echo: ${args.text}`;
  }
}

describe('createInvocation', () => {
  it('calls the method directly, synchronously, when nothing enhances it', () => {
    const tools = new Tools();
    const invoke = createInvocation(tools, tools.echo as never, none);
    expect(invoke([{ text: 'a' }, {}])).toBe('echo: a');
    expect(tools.calls).toBe(1);
  });

  it("settles a handler's observable to its last value", async () => {
    const streaming = { values: () => of('first', 'last') };
    const invoke = createInvocation(streaming, streaming.values as never, none);
    await expect(invoke([{}, {}])).resolves.toBe('last');
  });

  it('stays synchronous behind synchronous guards', () => {
    const tools = new Tools();
    const types: string[] = [];
    const guards = [
      { canActivate: (context: ExecutionContext) => !!types.push(context.getType()) },
    ];
    const invoke = createInvocation(tools, tools.echo as never, { ...none, guards });
    expect(invoke([{ text: 'b' }, {}])).toBe('echo: b');
    expect(types).toEqual(['mcp']);
  });

  it('runs pipes inside interceptors, on the piped argument only', async () => {
    const tools = new Tools();
    const order: string[] = [];
    const interceptors = [
      {
        intercept: (context: ExecutionContext, next: CallHandler) => {
          order.push(`interceptor sees ${context.getArgByIndex<{ text: string }>(0).text}`);
          return next.handle().pipe(map((value) => `[${String(value)}]`));
        },
      },
    ];
    const pipes = [
      {
        transform: (value: { text: string }) => {
          order.push('pipe');
          return { text: value.text.toUpperCase() };
        },
      },
    ];
    const invoke = createInvocation(
      tools,
      tools.echo as never,
      { ...none, interceptors, pipes },
      { index: 0, metadata: { type: 'body', metatype: Object } },
    );
    await expect(invoke([{ text: 'c' }, {}])).resolves.toBe('[echo: C]');
    expect(order).toEqual(['interceptor sees c', 'pipe']);
  });

  it('hands errors to the first filter that catches them; an unhandled one propagates', async () => {
    const tools = new Tools();
    const guards = [{ canActivate: () => false }];
    const filters = [
      { func: () => 'caught', exceptionMetatypes: [ForbiddenException] },
      { func: () => undefined, exceptionMetatypes: [] },
    ];
    const caught = createInvocation(tools, tools.echo as never, { ...none, guards, filters });
    expect(caught([{ text: 'd' }, {}])).toBe('caught');

    const failing = { fail: () => Promise.reject(new Error('boom')) };
    const passOn = createInvocation(failing, failing.fail as never, { ...none, filters });
    await expect(passOn([{}, {}])).rejects.toThrow('boom');
  });
});
