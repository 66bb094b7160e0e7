import { Injectable } from '@nestjs/common';
import { IsIn, IsString, Matches } from 'class-validator';
import { z } from 'zod';
import { McpTool } from '../../src/index.js';

/* The same tool three ways: a class-validator DTO, a JSON Schema object, a zod schema. */

export class SetPriorityDto {
  @Matches(/^T-[0-9]+$/) @IsString() id!: string;
  @IsIn(['low', 'normal', 'high']) priority!: 'low' | 'normal' | 'high';
}

const setPriority = z.object({
  id: z.string().regex(/^T-[0-9]+$/),
  priority: z.enum(['low', 'normal', 'high']).default('normal'), // a default applies
  reason: z.string().trim().optional(), // a transform runs before the method
});

@Injectable()
export class SchemaTools {
  // A DTO: arguments are validated and arrive as a SetPriorityDto.
  @McpTool({ description: 'Set a ticket priority (DTO).', inputSchema: SetPriorityDto })
  set_priority_dto({ id, priority }: SetPriorityDto) {
    return { id, priority };
  }

  // A JSON Schema object: listed verbatim, checked before the method runs.
  @McpTool({
    description: 'Set a ticket priority (JSON Schema).',
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', pattern: '^T-[0-9]+$' },
        priority: { enum: ['low', 'normal', 'high'] },
      },
      required: ['id', 'priority'],
      additionalProperties: false,
    },
  })
  set_priority_json({ id, priority }: { id: string; priority: string }) {
    return { id, priority };
  }

  // A zod schema (or any Standard Schema: valibot, ArkType): listed as the JSON Schema it
  // describes itself as; the method receives its output.
  @McpTool({ description: 'Set a ticket priority (zod).', inputSchema: setPriority })
  set_priority_zod({ id, priority, reason }: z.output<typeof setPriority>) {
    return reason ? { id, priority, reason } : { id, priority };
  }
}
