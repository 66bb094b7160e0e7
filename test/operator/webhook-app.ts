import { Global, Module, type INestApplication } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  McpModule,
  McpRegistry,
  type Authorizer,
  type McpModuleOptions,
  type McpApprovalsWebhookOptions,
} from '../../src/index.js';
import { MCP_OPERATOR_DESK } from '../../src/mcp/approvals/operator/operator-desk.interface.js';
import type { McpOperatorDesk } from '../../src/mcp/approvals/operator/operator-desk.interface.js';
import { McpWebhookNotifier } from '../../src/mcp/approvals/webhook/webhook.notifier.js';
import { MCP_WEBHOOK_DELIVERY_BOUNDS } from '../../src/mcp/approvals/webhook/webhook.notifier.js';
import { HttpTestApp, type AdapterName } from '../support/http-app.js';

/** The shared secret of the tests' webhook. */
export const WEBHOOK_SECRET = 'webhook e2e secret, long enough';
/** Where the links are built; tests request the link's path on the app itself. */
export const PUBLIC_URL = 'https://warden.example.test';

/** What the operator-gated tool did (one entry per run). */
export const runs: unknown[] = [];

/** Registers `transfer`, which the policy sends to an operator. */
const TRANSFER_TOOL = {
  provide: 'transfer-tool',
  useFactory: (registry: McpRegistry) =>
    registry.registerTool({
      name: 'transfer',
      description: 'Moves money once an operator approves',
      inputSchema: { type: 'object' },
      handler: (args: Record<string, unknown>) => {
        runs.push(args);
        return `transferred ${String(args.amount)}`;
      },
    }),
  inject: [McpRegistry],
};

const policy: Authorizer = (name) =>
  name === 'transfer'
    ? { kind: 'ask', prompt: 'Transfer 500 EUR to <Mallory>?', approver: 'operator' }
    : { kind: 'allow' };

/*
 * Short backoff, so a failing receiver's retries end within a test. Global,
 * so the notifier inside the MCP module sees it.
 */
@Global()
@Module({
  providers: [
    {
      provide: MCP_WEBHOOK_DELIVERY_BOUNDS,
      useValue: { maxQueued: 16, concurrency: 2, timeoutMs: 2_000, backoffMs: [10, 10] },
    },
  ],
  exports: [MCP_WEBHOOK_DELIVERY_BOUNDS],
})
class ShortBackoffModule {}

/** Boots an app whose `transfer` tool waits for an operator, announced to `webhook.url`. */
export async function bootWebhookApp(
  webhook: Partial<McpApprovalsWebhookOptions> & { url: string },
  adapter: AdapterName = 'express',
  options: Partial<McpModuleOptions> = {},
): Promise<HttpTestApp> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      ShortBackoffModule,
      McpModule.forRoot({
        name: 'webhook-test',
        version: '1.0.0',
        transport: 'http',
        authorizer: policy,
        authorizerSource: 'configured',
        requireAuthorization: false,
        elicitationTimeoutMs: 30_000,
        approvals: { webhook: { secret: WEBHOOK_SECRET, publicUrl: PUBLIC_URL, ...webhook } },
        ...options,
      }),
    ],
    providers: [TRANSFER_TOOL],
  }).compile();
  const app =
    adapter === 'fastify'
      ? moduleRef.createNestApplication(new FastifyAdapter(), { logger: false })
      : moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return new HttpTestApp(app, port, '/mcp');
}

export function deskOf(app: INestApplication): McpOperatorDesk {
  return app.get(MCP_OPERATOR_DESK);
}

export function notifierOf(app: INestApplication): McpWebhookNotifier {
  return app.get(McpWebhookNotifier);
}

/** An official SDK client connected to the app's Streamable HTTP endpoint. */
export async function sdkClient(app: HttpTestApp): Promise<Client> {
  const client = new Client({ name: 'jest-webhook', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(app.url)));
  return client;
}

/** Calls `transfer`; the promise settles once an operator decided. */
export function callTransfer(client: Client, args: object = {}): Promise<CallToolResult> {
  return client.callTool({
    name: 'transfer',
    arguments: { amount: 500, ...args },
  }) as Promise<CallToolResult>;
}

/** A link's path (the origin is the public one; the test talks to the app directly). */
export function pathOf(link: string): string {
  return new URL(link).pathname;
}

/** Submits a link's form as a browser would. */
export function submit(app: HttpTestApp, link: string, fields: Record<string, string> = {}) {
  return app.fetch(pathOf(link), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

export const resultText = (result: CallToolResult) => (result.content[0] as { text: string }).text;
