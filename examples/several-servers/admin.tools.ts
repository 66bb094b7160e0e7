import { Injectable } from '@nestjs/common';
import { McpTool } from '../../src/index.js';
import { OrdersService } from './orders.service.js';

/**
 * The internal server's tools. They name no server: AdminMcpModule declares them and imports
 * the `admin` server, so that server alone serves them.
 */
@Injectable()
export class AdminTools {
  constructor(private readonly orders: OrdersService) {}

  @McpTool({
    description: 'Refund an order (an operator approves first)',
    inputSchema: {
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
      additionalProperties: false,
    },
  })
  refund_order({ id }: { id: string }) {
    const order = this.orders.refund(id);
    return order ? `refunded ${id}` : `no order ${id}`;
  }

  @McpTool({ description: 'Every order, refunded or not', annotations: { readOnlyHint: true } })
  orders_report() {
    return { orders: this.orders.all() };
  }
}
