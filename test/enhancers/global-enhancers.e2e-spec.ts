import {
  Injectable,
  UsePipes,
  ValidationPipe,
  type ArgumentMetadata,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  type NestInterceptor,
  type PipeTransform,
} from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { IsString, MaxLength } from 'class-validator';
import type { IncomingMessage } from 'node:http';
import { map } from 'rxjs';
import { McpTool } from '../../src/index.js';
import { createEnhancersApp, textOf, type EnhancersApp } from './enhancers-app.js';

/*
 * The app's global enhancers (APP_* providers and app.useGlobal*()) apply to
 * the user's tool methods and never to the protocol's own handlers.
 */

const TEXT_INPUT = {
  type: 'object',
  properties: { text: { type: 'string' }, pass: { type: 'boolean' } },
  required: ['text'],
  additionalProperties: false,
};

class NoteDto {
  @IsString()
  @MaxLength(20)
  title!: string;
}

class StrictTextDto {
  @IsString()
  @MaxLength(3)
  text!: string;
}

const ran: string[] = [];
const guardTypes: string[] = [];
const pipeSeen: { metadata: ArgumentMetadata; isDto: boolean }[] = [];

@Injectable()
class EchoTools {
  @McpTool({ description: 'Echo the text back', input: TEXT_INPUT })
  echo({ text }: { text: string }) {
    ran.push('echo');
    return `echo: ${text}`;
  }

  @McpTool({ description: 'Create a note', input: NoteDto })
  create_note(note: NoteDto) {
    ran.push('create_note');
    return `${note instanceof NoteDto ? 'dto' : 'plain'} ${note.title}`;
  }

  @McpTool({ description: 'Echo, held to a stricter DTO by a method pipe', input: TEXT_INPUT })
  @UsePipes(new ValidationPipe({ expectedType: StrictTextDto }))
  strict_echo({ text }: { text: string }) {
    ran.push('strict_echo');
    return `strict: ${text}`;
  }
}

/** A guard written for HTTP controllers: it reads the request's headers. */
@Injectable()
class HttpAuthGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    guardTypes.push(context.getType());
    const request = context.switchToHttp().getRequest<IncomingMessage>();
    return request.headers.authorization === 'Bearer good';
  }
}

/** Wraps every result, as a response-envelope interceptor of an HTTP API does. */
@Injectable()
class EnvelopeInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler) {
    return next.handle().pipe(map((data: unknown) => ({ data })));
  }
}

/** Lets a tool call through only when its arguments say `pass: true`. */
class ArgumentsGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    guardTypes.push(context.getType());
    return context.getArgByIndex<{ pass?: boolean }>(0).pass === true;
  }
}

/** Upper-cases a `text` argument. */
@Injectable()
class ShoutPipe implements PipeTransform {
  transform(value: { text?: string }) {
    return typeof value.text === 'string' ? { ...value, text: value.text.toUpperCase() } : value;
  }
}

@Injectable()
class RecordingValidationPipe extends ValidationPipe {
  constructor() {
    super({ transform: true });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata) {
    pipeSeen.push({ metadata, isDto: value instanceof NoteDto });
    return super.transform(value, metadata);
  }
}

describe('global enhancers', () => {
  let t: EnhancersApp | undefined;

  beforeEach(() => {
    ran.length = 0;
    guardTypes.length = 0;
    pipeSeen.length = 0;
  });

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('an APP_GUARD written for HTTP leaves initialize and tools/list alone and guards tools', async () => {
    t = await createEnhancersApp([EchoTools, { provide: APP_GUARD, useClass: HttpAuthGuard }]);
    const init = await t.initialize();
    expect(init.serverInfo).toEqual({ name: 'enhancers-test', version: '1.0.0' });
    const { tools } = await t.result('tools/list');
    expect(tools.map((tool: { name: string }) => tool.name)).toContain('echo');
    expect(guardTypes).toEqual([]);

    // In process there is no HTTP request: the guard cannot read headers, so the tool never runs.
    const result = await t.callTool('echo', { text: 'hi' });
    expect(result.isError).toBe(true);
    expect(guardTypes).toEqual(['mcp']);
    expect(ran).toEqual([]);
  });

  it('an APP_INTERCEPTOR that wraps results wraps tool results only', async () => {
    t = await createEnhancersApp([
      EchoTools,
      { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
    ]);
    const init = await t.initialize();
    expect(init).toHaveProperty('protocolVersion', '2025-11-25');
    expect(init).not.toHaveProperty('data');
    const list = await t.result('tools/list');
    expect(Array.isArray(list.tools)).toBe(true);

    const result = await t.callTool('echo', { text: 'hi' });
    expect(result.structuredContent).toEqual({ data: 'echo: hi' });
    expect(result.isError).toBeUndefined();
  });

  it('app.useGlobalGuards() and useGlobalInterceptors() after init() apply to tools only', async () => {
    t = await createEnhancersApp([EchoTools], {
      afterInit: (app) => {
        app.useGlobalGuards(new ArgumentsGuard());
        app.useGlobalInterceptors(new EnvelopeInterceptor());
      },
    });
    expect((await t.initialize()).serverInfo.name).toBe('enhancers-test');
    expect((await t.result('tools/list')).tools).toHaveLength(3);
    expect(guardTypes).toEqual([]);

    const denied = await t.callTool('echo', { text: 'no' });
    expect(denied.structuredContent).toMatchObject({ decision: 'deny', detail: 'forbidden' });
    const allowed = await t.callTool('echo', { text: 'yes', pass: true });
    expect(allowed.structuredContent).toEqual({ data: 'echo: yes' });
    expect(guardTypes).toEqual(['mcp', 'mcp']);
    expect(ran).toEqual(['echo']);
  });

  it('an APP_PIPE transforms the tool arguments before the tool sees them', async () => {
    t = await createEnhancersApp([EchoTools, { provide: APP_PIPE, useClass: ShoutPipe }]);
    expect(textOf(await t.callTool('echo', { text: 'quiet' }))).toBe('echo: QUIET');
  });

  it('a global ValidationPipe gets the DTO instance after the framework validated it', async () => {
    t = await createEnhancersApp([
      EchoTools,
      { provide: APP_PIPE, useClass: RecordingValidationPipe },
    ]);
    expect(textOf(await t.callTool('create_note', { title: 'groceries' }))).toBe('dto groceries');
    expect(pipeSeen).toHaveLength(1);
    expect(pipeSeen[0].isDto).toBe(true);
    expect(pipeSeen[0].metadata).toMatchObject({ type: 'body', metatype: NoteDto });

    // Input that fails the tool's own contract is refused before any pipe runs.
    const invalid = await t.callTool('create_note', { title: 42 });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/^Invalid arguments for tool create_note/);
    expect(pipeSeen).toHaveLength(1);
  });

  it('app.useGlobalPipes(new ValidationPipe()) and a method @UsePipes both run', async () => {
    t = await createEnhancersApp([EchoTools], {
      configure: (app) => app.useGlobalPipes(new RecordingValidationPipe()),
    });
    expect(textOf(await t.callTool('strict_echo', { text: 'abc' }))).toBe('strict: abc');
    // The method's ValidationPipe holds the arguments to StrictTextDto: too long is a 400.
    const refused = await t.callTool('strict_echo', { text: 'abcdef' });
    expect(refused).toMatchObject({ isError: true });
    expect(textOf(refused)).toBe('Bad Request Exception');
    expect(pipeSeen.map((seen) => seen.metadata.metatype)).toEqual([Object, Object]);
    expect(ran).toEqual(['strict_echo']);
  });
});
