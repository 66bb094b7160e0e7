import {
  Inject,
  Injectable,
  Scope,
  UseGuards,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { APP_INTERCEPTOR, REQUEST } from '@nestjs/core';
import { map } from 'rxjs';
import { McpPrompt, McpResource, McpTool, type McpToolContext } from '../../src/index.js';
import { bootError, createEnhancersApp, type EnhancersApp } from './enhancers-app.js';

/*
 * Tools, resources and prompts on request-scoped providers (or on providers
 * that depend on one) are built per MCP request, and `@Inject(REQUEST)` gives
 * the handler's MCP context. Scopes that cannot be served refuse to boot.
 */

const ANY_INPUT = { type: 'object' };
let built = 0;

@Injectable({ scope: Scope.REQUEST })
class ScopedTools {
  readonly serial = ++built;

  constructor(@Inject(REQUEST) private readonly request: McpToolContext) {}

  @McpTool({ description: 'Who is this instance?', input: ANY_INPUT })
  whoami(_args: object, ctx: McpToolContext) {
    return { serial: this.serial, requestIsContext: this.request === ctx, conn: ctx.connId };
  }

  @McpResource({ uri: 'scoped://serial', name: 'serial' })
  serialText() {
    return `serial ${this.serial}`;
  }

  @McpPrompt({
    description: 'A prompt on a scoped provider',
    arguments: [{ name: 'topic', complete: 'topics' }],
  })
  brief({ topic }: { topic?: string }) {
    return [{ role: 'user', content: { type: 'text', text: `${topic} #${this.serial}` } }];
  }

  topics(value: string) {
    return ['alpha', 'beta'].filter((topic) => topic.startsWith(value));
  }
}

/** Request-scoped: whoever injects it is request-dependent. */
@Injectable({ scope: Scope.REQUEST })
class RequestCounter {
  readonly serial = ++built;
}

@Injectable()
class DependentTools {
  constructor(private readonly counter: RequestCounter) {}

  @McpTool({ description: 'Reads its request-scoped dependency', input: ANY_INPUT })
  count() {
    return `count ${this.counter.serial}`;
  }
}

const guarded: number[] = [];

class SerialGuard implements CanActivate {
  canActivate(context: ExecutionContext) {
    guarded.push(context.getArgByIndex<{ n: number }>(0).n);
    return context.getArgByIndex<{ n: number }>(0).n > 0;
  }
}

@Injectable({ scope: Scope.REQUEST })
class GuardedScopedTools {
  @McpTool({ description: 'Guarded, on a scoped provider', input: ANY_INPUT })
  @UseGuards(SerialGuard)
  positive({ n }: { n: number }) {
    return `n=${n}`;
  }
}

@Injectable({ scope: Scope.TRANSIENT })
class TransientTools {
  @McpTool({ description: 'On a transient provider', input: ANY_INPUT })
  echo() {
    return 'echo';
  }
}

@Injectable({ scope: Scope.REQUEST, durable: true })
class DurableTools {
  @McpTool({ description: 'On a durable provider', input: ANY_INPUT })
  echo() {
    return 'echo';
  }
}

class TagInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler) {
    return next.handle().pipe(map((value) => `${String(value)} (tagged)`));
  }
}

/** A request-scoped global interceptor: it exists only within an MCP request. */
@Injectable({ scope: Scope.REQUEST })
class RequestTagInterceptor implements NestInterceptor {
  constructor(@Inject(REQUEST) private readonly request: McpToolContext) {}

  intercept(_context: ExecutionContext, next: CallHandler) {
    return next.handle().pipe(map((value) => `${String(value)} via ${this.request.connId}`));
  }
}

@Injectable()
class SingletonTools {
  @McpTool({ description: 'A singleton tool', input: ANY_INPUT })
  plain() {
    return 'plain';
  }
}

describe('request-scoped providers', () => {
  let t: EnhancersApp | undefined;

  beforeEach(() => {
    built = 0;
    guarded.length = 0;
  });

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('lists a request-scoped tool and builds a fresh instance per call, REQUEST = its context', async () => {
    t = await createEnhancersApp([ScopedTools]);
    const { tools } = await t.result('tools/list');
    expect(tools.map((tool: { name: string }) => tool.name)).toEqual(['whoami']);

    const first = await t.callTool('whoami');
    const second = await t.callTool('whoami');
    expect(first.structuredContent).toEqual({ serial: 1, requestIsContext: true, conn: 'default' });
    expect(second.structuredContent).toEqual({
      serial: 2,
      requestIsContext: true,
      conn: 'default',
    });
  });

  it('serves resources, prompts and completers of a request-scoped provider per request', async () => {
    t = await createEnhancersApp([ScopedTools]);
    const read = await t.result('resources/read', { uri: 'scoped://serial' });
    expect(read.contents[0].text).toBe('serial 1');
    const prompt = await t.result('prompts/get', { name: 'brief', arguments: { topic: 'x' } });
    expect(prompt.messages[0].content.text).toBe('x #2');
    const completion = await t.result('completion/complete', {
      ref: { type: 'ref/prompt', name: 'brief' },
      argument: { name: 'topic', value: 'al' },
    });
    expect(completion.completion.values).toEqual(['alpha']);
    expect(built).toBe(3);
  });

  it('builds a request-dependent provider per call', async () => {
    t = await createEnhancersApp([DependentTools, RequestCounter]);
    const { tools } = await t.result('tools/list');
    expect(tools.map((tool: { name: string }) => tool.name)).toEqual(['count']);
    expect((await t.callTool('count')).content[0].text).toBe('count 1');
    expect((await t.callTool('count')).content[0].text).toBe('count 2');
  });

  it("runs a request-scoped provider's own guards and the global interceptors", async () => {
    t = await createEnhancersApp([
      GuardedScopedTools,
      { provide: APP_INTERCEPTOR, useClass: TagInterceptor },
    ]);
    expect((await t.callTool('positive', { n: 3 })).content[0].text).toBe('n=3 (tagged)');
    const denied = await t.callTool('positive', { n: -1 });
    expect(denied.structuredContent).toMatchObject({ decision: 'deny', detail: 'forbidden' });
    expect(guarded).toEqual([3, -1]);
  });

  it('applies a request-scoped APP_INTERCEPTOR to a singleton tool, built per request', async () => {
    t = await createEnhancersApp([
      SingletonTools,
      { provide: APP_INTERCEPTOR, useClass: RequestTagInterceptor },
    ]);
    expect((await t.initialize()).serverInfo.name).toBe('enhancers-test');
    expect((await t.callTool('plain')).content[0].text).toBe('plain via default');
  });

  it('refuses to boot with a tool on a transient provider, naming Provider.method', async () => {
    const error = await bootError([TransientTools]);
    expect(error.message).toContain('TransientTools.echo');
    expect(error.message).toContain('transient');
  });

  it('refuses to boot with a tool on a durable provider, naming Provider.method', async () => {
    const error = await bootError([DurableTools]);
    expect(error.message).toContain('DurableTools.echo');
    expect(error.message).toContain('durable');
  });
});
