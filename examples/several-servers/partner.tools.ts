import { Injectable } from '@nestjs/common';
import { McpTool } from '../../src/index.js';

/** The partner-facing server's tools; PartnerMcpModule declares them with the `partner` server. */
@Injectable()
export class PartnerTools {
  @McpTool({
    description: 'Quote a shipping price for a weight in kilograms',
    inputSchema: {
      type: 'object',
      properties: { kg: { type: 'integer', minimum: 0, maximum: 1000 } },
      required: ['kg'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  })
  quote_shipping({ kg }: { kg: number }) {
    return `shipping ${kg} kg costs ${(5 + kg * 1.5).toFixed(2)} EUR`;
  }
}
