import { Module } from '@nestjs/common';
import { OrdersService } from './orders.service.js';

/** The shop's orders, for whichever module needs them. */
@Module({ providers: [OrdersService], exports: [OrdersService] })
export class OrdersModule {}
