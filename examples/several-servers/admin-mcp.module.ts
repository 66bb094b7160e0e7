import { Module } from '@nestjs/common';
import { Authorizers, McpModule, type Authorizer } from '../../src/index.js';
import { AdminTools } from './admin.tools.js';
import { AdminStatsController } from './admin-stats.controller.js';
import { OrdersModule } from './orders.module.js';

/* Refunds need a second person: an operator decides on the admin server's desk. */
const adminAuthorizer: Authorizer = (name, args) =>
  name === 'refund_order'
    ? { kind: 'ask', prompt: `Refund order ${String(args.id)}?`, approver: 'operator' }
    : { kind: 'allow' };

/**
 * The internal `admin` server at /admin/mcp (its 2024-11-05 SSE pair under /admin), with its
 * own authorizer, approvals and limits. The tools this module declares are its own.
 */
@Module({
  imports: [
    OrdersModule,
    McpModule.forRoot({
      name: 'admin',
      version: '1.0.0',
      transport: 'http',
      http: { path: '/admin/mcp', ssePairPath: '/admin' },
      authorizer: adminAuthorizer,
      authorizerSource: 'configured', // an operator chose this policy
      readAuthorizer: Authorizers.allowAll(),
      approvals: { answerWithinMs: 60_000 },
    }),
  ],
  providers: [AdminTools],
  controllers: [AdminStatsController],
})
export class AdminMcpModule {}
