import { Injectable, Module, type DynamicModule, type INestApplication } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import {
  Authorizers,
  McpModule,
  McpPolicies,
  McpTool,
  type Authorizer,
  type McpModuleOptions,
} from '../../src/index.js';
import { HttpTestApp, type AdapterName } from '../support/http-app.js';

/*
 * The fixture of the several-servers suites: one app, two servers.
 * - `admin` at /admin/mcp (its SSE pair under /admin): an authorizer closure; `purge` asks the
 *   caller, `refund` asks an operator. Its tools belong to it because AdminMcpModule, which
 *   declares them, imports its McpModule.forRoot().
 * - `partner` at /partner/mcp (its SSE pair under /partner): a Cedar policy that denies its own
 *   `purge`. Its tools name it in their decorators.
 * `status` is served by both (`server: ['admin', 'partner']`).
 */

export const runs = {
  adminPurge: 0,
  partnerPurge: 0,
  refund: 0,
  quote: 0,
  status: 0,
  wipe: 0,
};

export const REFUND_PROMPT = 'Refund the order?';
export const PURGE_PROMPT = 'Purge the admin caches?';
export const WIPE_PROMPT = 'Wipe the shared cache?';

@Injectable()
export class AdminTools {
  @McpTool({ description: 'Purge the admin caches (the caller approves)' })
  purge() {
    runs.adminPurge++;
    return 'admin purged';
  }

  @McpTool({ description: 'Refund an order (an operator approves)' })
  refund() {
    runs.refund++;
    return 'refunded';
  }

  @McpTool({ description: 'Reset the admin counters' })
  reset_counters() {
    return 'reset';
  }
}

@Injectable()
export class PartnerTools {
  @McpTool({ server: 'partner', description: 'Quote a price' })
  quote() {
    runs.quote++;
    return 'quoted 42';
  }

  @McpTool({ server: 'partner', description: "Purge the partner's cart (the policy forbids it)" })
  purge() {
    runs.partnerPurge++;
    return 'partner purged';
  }

  @McpTool({ server: ['admin', 'partner'], description: 'Say the service is up' })
  status() {
    runs.status++;
    return 'up';
  }

  @McpTool({ server: ['admin', 'partner'], description: 'Wipe the shared cache (both ask)' })
  wipe() {
    runs.wipe++;
    return 'wiped';
  }
}

export const adminAuthorizer: Authorizer = (name) => {
  if (name === 'purge') return { kind: 'ask', prompt: PURGE_PROMPT };
  if (name === 'wipe') return { kind: 'ask', prompt: WIPE_PROMPT };
  if (name === 'refund') return { kind: 'ask', prompt: REFUND_PROMPT, approver: 'operator' };
  return { kind: 'allow' };
};

/* Validated against partner's tools only: naming `refund` or `reset_counters` would fail boot. */
export const PARTNER_POLICY = `
@id("partner-reads") permit (principal, action in Mcp::Action::"mcp/read", resource);
@id("partner-tools")
permit (principal, action in [Mcp::Action::"quote", Mcp::Action::"status"], resource);
@id("partner-no-purge") @reason("partners_cannot_purge")
forbid (principal, action == Mcp::Action::"purge", resource);
@id("partner-wipe-asks") @ask("${WIPE_PROMPT}")
permit (principal, action == Mcp::Action::"wipe", resource);
`;

export const PARTNER_CALLS_PER_SECOND = 2;

/* One secret for both, as one environment variable would give it: states stay per server. */
const STATE_SECRET = 'one secret for every server of the app';

export function adminOptions(extra: Partial<McpModuleOptions> = {}): McpModuleOptions {
  return {
    name: 'admin',
    version: '1.0.0',
    transport: 'http',
    http: { path: '/admin/mcp', ssePairPath: '/admin' },
    authorizer: adminAuthorizer,
    authorizerSource: 'configured',
    readAuthorizer: Authorizers.allowAll(),
    // The suites test isolation over loopback, not the network boot guard.
    requireAuthorization: false,
    elicitationTimeoutMs: 10_000,
    stateSecret: STATE_SECRET,
    ...extra,
  };
}

export function partnerOptions(extra: Partial<McpModuleOptions> = {}): McpModuleOptions {
  return {
    name: 'partner',
    version: '2.0.0',
    transport: 'http',
    http: { path: '/partner/mcp', ssePairPath: '/partner' },
    policy: McpPolicies.cedar({ policies: { text: PARTNER_POLICY } }),
    requireAuthorization: false,
    stateSecret: STATE_SECRET,
    ...extra,
  };
}

/** The admin server and the tools it owns by module. */
export function adminMcpModule(server: DynamicModule): DynamicModule {
  @Module({})
  class AdminMcpModule {}
  return { module: AdminMcpModule, imports: [server], providers: [AdminTools] };
}

export interface TwoServers {
  readonly app: INestApplication;
  readonly admin: HttpTestApp;
  readonly partner: HttpTestApp;
  close(): Promise<void>;
}

/** Boots the two-server app on `adapter`, listening on loopback at `port` (a free one unless given). */
export async function bootTwoServers(
  adapter: AdapterName = 'express',
  servers: { admin?: DynamicModule; partner?: DynamicModule } = {},
  port = 0,
): Promise<TwoServers> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      adminMcpModule(servers.admin ?? McpModule.forRoot(adminOptions())),
      servers.partner ?? McpModule.forRoot(partnerOptions()),
    ],
    providers: [PartnerTools],
  }).compile();
  const app =
    adapter === 'fastify'
      ? moduleRef.createNestApplication(new FastifyAdapter(), { logger: false })
      : moduleRef.createNestApplication({ logger: false });
  await app.listen(port, '127.0.0.1');
  const { port: bound } = app.getHttpServer().address() as AddressInfo;
  const admin = new HttpTestApp(app, bound, '/admin/mcp');
  const partner = admin.at('/partner/mcp');
  return { app, admin, partner, close: () => admin.close() };
}

export function resetRuns(): void {
  for (const key of Object.keys(runs) as (keyof typeof runs)[]) runs[key] = 0;
}
