import { Injectable } from '@nestjs/common';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import { McpPrompt, McpTool } from '../../src/index.js';

/*
 * The same tools written with each Standard Schema library: a nested object, an array, an
 * optional field, a default, a transform and a refinement; and an output schema the `broken_*`
 * tools' results fail. Each tool answers with what its handler received, so a test sees what
 * validation made of the arguments.
 */

export const zodOrder = z.object({
  customer: z.object({ name: z.string().min(1), email: z.email() }),
  items: z.array(z.object({ sku: z.string(), qty: z.number().int().positive() })).min(1),
  note: z.string().optional(),
  priority: z.enum(['low', 'high']).default('low'),
  code: z.string().transform((value) => value.toUpperCase()),
  total: z.number().refine((value) => value % 5 === 0, { message: 'must be a multiple of 5' }),
});
const zodReceipt = z.object({ accepted: z.boolean(), id: z.string() });

export const valibotOrder = v.object({
  customer: v.object({
    name: v.pipe(v.string(), v.minLength(1)),
    email: v.pipe(v.string(), v.email()),
  }),
  items: v.pipe(
    v.array(v.object({ sku: v.string(), qty: v.pipe(v.number(), v.integer(), v.minValue(1)) })),
    v.minLength(1),
  ),
  note: v.optional(v.string()),
  priority: v.optional(v.picklist(['low', 'high']), 'low'),
  code: v.pipe(
    v.string(),
    v.transform((value) => value.toUpperCase()),
  ),
  total: v.pipe(
    v.number(),
    v.check((value) => value % 5 === 0, 'must be a multiple of 5'),
  ),
});
const valibotReceipt = v.object({ accepted: v.boolean(), id: v.string() });

export const arktypeOrder = type({
  customer: { name: 'string > 0', email: 'string.email' },
  items: type({ sku: 'string', qty: 'number.integer > 0' }).array().atLeastLength(1),
  'note?': 'string',
  priority: type("'low' | 'high'").default('low'),
  code: type('string').pipe((value) => value.toUpperCase()),
  total: type('number').narrow((value, ctx) => value % 5 === 0 || ctx.mustBe('a multiple of 5')),
});
const arktypeReceipt = type({ accepted: 'boolean', id: 'string' });

const receipt = (args: unknown) => ({ received: args });

@Injectable()
export class StandardSchemaTools {
  @McpTool({ description: 'Places an order (zod)', inputSchema: zodOrder })
  order_zod(args: unknown) {
    return receipt(args);
  }

  @McpTool({ description: 'Places an order (valibot)', inputSchema: valibotOrder })
  order_valibot(args: unknown) {
    return receipt(args);
  }

  @McpTool({ description: 'Places an order (ArkType)', inputSchema: arktypeOrder })
  order_arktype(args: unknown) {
    return receipt(args);
  }

  @McpTool({ description: 'A receipt (zod)', outputSchema: zodReceipt })
  receipt_zod() {
    return { accepted: true, id: 'r-1' };
  }

  @McpTool({ description: 'A broken receipt (zod)', outputSchema: zodReceipt })
  broken_zod() {
    return { accepted: 'yes', id: 7 };
  }

  @McpTool({ description: 'A receipt (valibot)', outputSchema: valibotReceipt })
  receipt_valibot() {
    return { accepted: true, id: 'r-1' };
  }

  @McpTool({ description: 'A broken receipt (valibot)', outputSchema: valibotReceipt })
  broken_valibot() {
    return { accepted: 'yes', id: 7 };
  }

  @McpTool({ description: 'A receipt (ArkType)', outputSchema: arktypeReceipt })
  receipt_arktype() {
    return { accepted: true, id: 'r-1' };
  }

  @McpTool({ description: 'A broken receipt (ArkType)', outputSchema: arktypeReceipt })
  broken_arktype() {
    return { accepted: 'yes', id: 7 };
  }

  @McpPrompt({
    description: 'Greets someone (zod arguments)',
    argsSchema: z.object({
      name: z
        .string()
        .describe('Who to greet')
        .transform((name) => name.trim()),
      tone: z.enum(['warm', 'brief']).optional(),
    }),
  })
  greet(args: { name: string; tone?: string }) {
    const text = `Say hello to ${args.name}${args.tone ? ` (${args.tone})` : ''}`;
    return [{ role: 'user' as const, content: { type: 'text' as const, text } }];
  }
}
