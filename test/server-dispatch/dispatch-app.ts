import { aborted } from 'node:util';
import { Injectable } from '@nestjs/common';
import {
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpTool,
  type McpToolContext,
} from '../../src/index.js';
import { deferred } from '../support/deferred.js';
export const OBJECT_SCHEMA = { type: 'object' } as const;

/* ----------------------------------------------------------------- fixtures */

@Injectable()
export class BasicTools {
  @McpTool({
    description: 'Echo text',
    input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  })
  echo({ text }: { text: string }) {
    return `echo: ${text}`;
  }
}

@Injectable()
export class ContentFixtures {
  @McpResource({ uri: 'notes://index', description: 'Index of notes', mimeType: 'text/plain' })
  index() {
    return 'index';
  }

  @McpResource({ uri: 'notes://other', mimeType: 'text/plain' })
  other() {
    return 'other';
  }

  @McpPrompt({ description: 'Summarise', arguments: [{ name: 'topic', required: true }] })
  summarise({ topic }: Record<string, string>) {
    return [{ role: 'user', content: { type: 'text', text: `Summarise ${topic}` } }];
  }
}

@Injectable()
export class WaitingTools {
  readonly started = deferred<AbortSignal>();

  @McpTool({ description: 'Waits until cancelled', input: OBJECT_SCHEMA })
  wait(_args: object, ctx: McpToolContext) {
    this.started.resolve(ctx.signal);
    return aborted(ctx.signal, ctx.signal).then(() => {
      throw new Error('aborted');
    });
  }
}

@Injectable()
export class ProgressTools {
  context?: McpToolContext;

  @McpTool({ description: 'Reports progress', input: OBJECT_SCHEMA })
  work(_args: object, ctx: McpToolContext) {
    this.context = ctx;
    ctx.progress(1, 3);
    ctx.progress(1, 3);
    ctx.progress(2, 3);
    return 'worked';
  }

  @McpTool({ description: 'Logs at every level', input: OBJECT_SCHEMA })
  chatty(_args: object, ctx: McpToolContext) {
    ctx.log('debug', 'd');
    ctx.log('info', 'i');
    ctx.log('warning', 'w');
    ctx.log('error', 'e');
    return 'logged';
  }
}

export const many = Array.from({ length: 150 }, (_, i) => `item-${String(i).padStart(3, '0')}`);

@Injectable()
export class CompletionFixtures {
  @McpPrompt({
    description: 'Greets in a language',
    arguments: [
      { name: 'lang', complete: (value) => ['en', 'es', 'fr'].filter((l) => l.startsWith(value)) },
      { name: 'name' },
    ],
  })
  greet() {
    return [{ role: 'user', content: { type: 'text', text: 'hi' } }];
  }

  @McpPrompt({ description: 'Many choices', arguments: [{ name: 'pick', complete: () => many }] })
  choose() {
    return [{ role: 'user', content: { type: 'text', text: 'pick' } }];
  }

  @McpResourceTemplate({
    uriTemplate: 'notes://{id}',
    complete: { id: (value) => ['alpha', 'beta', 'alpine'].filter((v) => v.startsWith(value)) },
  })
  note(_uri: string, { id }: Record<string, string>) {
    return `note ${id}`;
  }

  @McpTool({
    description: 'Weather for a city',
    input: { type: 'object', properties: { city: { type: 'string' } } },
    completions: {
      city: (value) => ['Paris', 'Prague', 'Porto'].filter((c) => c.startsWith(value)),
    },
  })
  weather() {
    return 'sunny';
  }
}

/* -------------------------------------------------------------------- tests */
