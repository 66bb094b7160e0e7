import { Injectable } from '@nestjs/common';
import { IsString, MinLength } from 'class-validator';
import {
  McpModule,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpTool,
  type Authorizer,
  type McpModuleOptions,
  type McpToolContext,
  type PromptMessage,
} from '../../src/index.js';
import { createMcpTestingApp } from '../../src/testing/index.js';

const NAMES = ['alice', 'albert', 'bob'];

/** Arguments of `greet`. */
export class GreetDto {
  @IsString()
  @MinLength(1)
  name!: string;
}

/** A small desk: a read tool, a DTO tool, an ask tool, a tool that elicits, a resource, a prompt. */
@Injectable()
export class DeskTools {
  /** Who `purge` ran for, in order: the proof that a tool ran (or did not). */
  readonly purges: string[] = [];

  @McpTool({ description: 'What time it is', annotations: { readOnlyHint: true } })
  now() {
    return 'noon';
  }

  @McpTool({
    description: 'Greets someone',
    input: GreetDto,
    completions: { name: 'completeName' },
  })
  greet({ name }: GreetDto) {
    return { greeting: `Hello, ${name}` };
  }

  @McpTool({
    description: 'Deletes everything (in a scope)',
    input: { type: 'object', properties: { scope: { type: 'string' } } },
    annotations: { destructiveHint: true },
  })
  purge(_args: object, ctx: McpToolContext) {
    this.purges.push(ctx.principal?.subject ?? 'anonymous');
    return 'purged';
  }

  @McpTool({ description: 'Asks the user for a colour' })
  async colour(_args: object, ctx: McpToolContext) {
    const answer = await ctx.elicit('Favourite colour?', {
      type: 'object',
      properties: { colour: { type: 'string' } },
      required: ['colour'],
    });
    return answer.action === 'accept' ? `likes ${String(answer.content?.colour)}` : 'no colour';
  }

  @McpResource({ uri: 'desk://motd', name: 'motd', mimeType: 'text/plain' })
  motd() {
    return 'Be kind';
  }

  @McpResourceTemplate({ uriTemplate: 'desk://people/{name}', name: 'person' })
  person(_uri: string, { name }: Record<string, string>) {
    return `Person ${name}`;
  }

  @McpPrompt({
    description: 'Write a greeting',
    arguments: [{ name: 'name', required: true, complete: 'completeName' }],
  })
  greeting({ name }: Record<string, string>): PromptMessage[] {
    return [{ role: 'user', content: { type: 'text', text: `Greet ${name}` } }];
  }

  completeName(prefix: string): string[] {
    return NAMES.filter((name) => name.startsWith(prefix));
  }
}

/**
 * The desk's policy: `purge` asks (naming the caller in its prompt), `greet`
 * is for alice only, everything else is allowed. It records who it saw.
 */
export function deskPolicy(seen: (string | undefined)[] = []): Authorizer {
  return (name, _args, context) => {
    const subject = context.principal?.subject;
    seen.push(subject);
    if (name === 'purge') return { kind: 'ask', prompt: `Purge everything for ${subject}?` };
    if (name === 'greet' && subject !== 'alice') return { kind: 'deny', reason: 'alice only' };
    return { kind: 'allow' };
  };
}

/** Boots the desk; a page size of 2 makes every list span several pages. */
export async function createDeskApp(options: Partial<McpModuleOptions> = {}) {
  return createMcpTestingApp({
    imports: [
      McpModule.forRoot({
        name: 'desk',
        version: '1.0.0',
        authorizer: deskPolicy(),
        pageSize: 2,
        ...options,
      }),
    ],
    providers: [DeskTools],
  });
}
