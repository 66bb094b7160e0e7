import { Injectable } from '@nestjs/common';

/** An order of the shop: what both servers' tools read. */
export interface Order {
  readonly id: string;
  readonly total: number;
  refunded: boolean;
}

/** The shop's orders, in memory: an ordinary app service both servers' tools share. */
@Injectable()
export class OrdersService {
  private readonly orders = new Map<string, Order>([
    ['A-1', { id: 'A-1', total: 120, refunded: false }],
    ['A-2', { id: 'A-2', total: 35, refunded: false }],
  ]);

  all(): Order[] {
    return [...this.orders.values()];
  }

  refund(id: string): Order | undefined {
    const order = this.orders.get(id);
    if (order) order.refunded = true;
    return order;
  }
}
