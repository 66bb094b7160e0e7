import { Injectable } from '@nestjs/common';
import { IsInt, IsNotEmpty, IsOptional, IsString, Min } from 'class-validator';
import { McpPrompt, McpResource, McpResourceTemplate, McpTool } from '../../src/index.js';

export const OBJECT_SCHEMA = { type: 'object' } as const;

/* ----------------------------------------------------------------- fixtures */

export class CreateNoteDto {
  @IsString()
  @IsNotEmpty()
  title: string;

  @IsInt()
  @Min(1)
  priority: number;

  @IsOptional()
  @IsString()
  body?: string;
}

export const ROUTE_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    point: {
      type: 'object',
      properties: { x: { type: 'number' }, y: { type: 'number' } },
      required: ['x', 'y'],
    },
  },
  properties: { from: { $ref: '#/$defs/point' }, to: { $ref: '#/$defs/point' } },
  required: ['from', 'to'],
};

export const COUNT_OUTPUT = {
  type: 'object',
  properties: { count: { type: 'integer' } },
  required: ['count'],
};

@Injectable()
export class DiscoveredTools {
  @McpTool({ description: 'Named after its method', input: OBJECT_SCHEMA })
  method_named() {
    return 'by method';
  }

  @McpTool({ name: 'explicit.name', title: 'Explicit', description: 'Named explicitly' })
  somethingElse() {
    return 'by option';
  }

  @McpTool({ description: 'Creates a note from a DTO', input: CreateNoteDto })
  create_note(args: CreateNoteDto) {
    return {
      isDto: args instanceof CreateNoteDto,
      title: args.title,
      priority: args.priority,
    };
  }

  @McpTool({ description: 'Distance between two points', input: ROUTE_SCHEMA })
  route({ from, to }: { from: { x: number; y: number }; to: { x: number; y: number } }) {
    return String(Math.hypot(to.x - from.x, to.y - from.y));
  }

  @McpTool({ description: 'Counts correctly', input: OBJECT_SCHEMA, output: COUNT_OUTPUT })
  good_count() {
    return { count: 3 };
  }

  @McpTool({ description: 'Counts wrongly', input: OBJECT_SCHEMA, output: COUNT_OUTPUT })
  bad_count() {
    return { count: 'three' };
  }
}

@Injectable()
export class ReturnShapeTools {
  @McpTool({ description: 'Returns a string', input: OBJECT_SCHEMA })
  as_string() {
    return 'plain text';
  }

  @McpTool({ description: 'Returns content', input: OBJECT_SCHEMA })
  as_content() {
    return [
      { type: 'text', text: 'first' },
      { type: 'text', text: 'second' },
    ];
  }

  @McpTool({ description: 'Returns a full result', input: OBJECT_SCHEMA })
  as_result() {
    return {
      content: [{ type: 'text', text: 'full' }],
      structuredContent: { full: true },
      isError: false,
    };
  }

  @McpTool({ description: 'Returns an object', input: OBJECT_SCHEMA })
  as_object() {
    return { answer: 42, tags: ['a', 'b'] };
  }
}

@Injectable()
export class ContentFixtures {
  @McpResource({ uri: 'mem://text', description: 'Some text', mimeType: 'text/plain' })
  text() {
    return 'hello resource';
  }

  @McpResource({ uri: 'mem://bytes', mimeType: 'application/octet-stream' })
  bytes() {
    return new Uint8Array([1, 2, 3, 250]);
  }

  @McpResource({ uri: 'mem://buffer' })
  buffer() {
    return Buffer.from('buf');
  }

  @McpResource({ uri: 'mem://full', name: 'full-result' })
  full() {
    return {
      contents: [
        { uri: 'mem://full', mimeType: 'application/json', text: '{"a":1}' },
        { uri: 'mem://full#2', text: 'second part' },
      ],
    };
  }

  @McpResourceTemplate({
    uriTemplate: 'notes://{folder}/{id}',
    description: 'A note in a folder',
    mimeType: 'application/json',
  })
  note(uri: string, variables: Record<string, string>) {
    return JSON.stringify({ uri, variables });
  }

  @McpPrompt({
    description: 'Summarise a topic',
    arguments: [
      { name: 'topic', description: 'What to summarise', required: true },
      { name: 'tone', required: false },
    ],
  })
  summarise({ topic, tone }: Record<string, string>) {
    return [
      {
        role: 'user',
        content: { type: 'text', text: `Summarise ${topic} (${tone ?? 'neutral'})` },
      },
    ];
  }

  @McpPrompt({ name: 'full_prompt', description: 'Returns a full result' })
  fullPrompt() {
    return {
      description: 'custom description',
      messages: [{ role: 'assistant', content: { type: 'text', text: 'ready' } }],
    };
  }
}

@Injectable()
export class BadNameTools {
  @McpTool({ name: 'bad name', description: 'Has a space in its name', input: OBJECT_SCHEMA })
  spaced() {
    return '';
  }
}

@Injectable()
export class NoDescriptionTools {
  @McpTool({ input: OBJECT_SCHEMA } as any)
  undescribed() {
    return '';
  }
}

@Injectable()
export class StringInputTools {
  @McpTool({ description: 'Input is not an object schema', input: { type: 'string' } })
  stringy() {
    return '';
  }
}

@Injectable()
export class DuplicateTools {
  @McpTool({ name: 'same', description: 'First', input: OBJECT_SCHEMA })
  first() {
    return '';
  }

  @McpTool({ name: 'same', description: 'Second', input: OBJECT_SCHEMA })
  second() {
    return '';
  }
}

/* -------------------------------------------------------------------- tests */
