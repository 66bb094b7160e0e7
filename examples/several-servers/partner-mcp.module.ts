import { Module } from '@nestjs/common';
import { McpModule, McpPolicies } from '../../src/index.js';
import { PartnerTools } from './partner.tools.js';

/* What partners may do, as Cedar: validated against this server's tools only. */
const PARTNER_POLICY = `
@id("partner-reads")
permit (principal, action in Mcp::Action::"mcp/read", resource);

@id("partner-status")
permit (principal, action == Mcp::Action::"shop_status", resource);

@id("partner-quotes-up-to-500-kg")
permit (principal, action == Mcp::Action::"quote_shipping", resource)
when { context.input.kg <= 500 };
`;

/**
 * The partner-facing `partner` server at /partner/mcp (its SSE pair under /partner), with a
 * Cedar policy and a tighter call rate. Its options come from a factory, named beside it so
 * the server's injection tokens exist before the factory runs.
 */
@Module({
  imports: [
    McpModule.forRootAsync({
      name: 'partner',
      transport: 'http',
      useFactory: () => ({
        name: 'partner',
        version: '1.0.0',
        transport: 'http' as const,
        http: { path: '/partner/mcp', ssePairPath: '/partner' },
        policy: McpPolicies.cedar({ policies: { text: PARTNER_POLICY } }),
        limits: { callsPerSecondPerPrincipal: Number(process.env.PARTNER_CALLS_PER_SECOND ?? 20) },
      }),
    }),
  ],
  providers: [PartnerTools],
})
export class PartnerMcpModule {}
