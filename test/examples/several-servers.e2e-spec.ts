import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AddressInfo } from 'node:net';
import { filter, firstValueFrom } from 'rxjs';
import { SeveralServersModule } from '../../examples/several-servers/several-servers.module.js';
import { MCP_OPERATOR_DESK, type McpOperatorDesk } from '../../src/index.js';
import { serverTokenOf } from '../../src/mcp/core/servers/server-tokens.js';

/*
 * examples/several-servers: the example's module as its main.ts serves it, driven by the
 * official SDK v1 client at each server's path.
 */

const text = (result: unknown) =>
  (result as { content: { text: string }[] }).content.map((part) => part.text).join('');

describe('examples/several-servers', () => {
  let app: INestApplication;
  let base: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [SeveralServersModule] }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await app.close();
  });

  async function connect(path: string): Promise<Client> {
    const client = new Client({ name: 'jest-example', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(path, base)));
    clients.push(client);
    return client;
  }

  it('serves admin and partner at their own paths, each with its own tools', async () => {
    const admin = await connect('/admin/mcp');
    const partner = await connect('/partner/mcp');
    expect(admin.getServerVersion()?.name).toBe('admin');
    expect(partner.getServerVersion()?.name).toBe('partner');
    expect((await admin.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      'orders_report',
      'refund_order',
      'shop_status',
    ]);
    expect((await partner.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      'quote_shipping',
      'shop_status',
    ]);
    expect(text(await partner.callTool({ name: 'shop_status', arguments: {} }))).toBe(
      'the shop is up',
    );
    expect(text(await partner.callTool({ name: 'quote_shipping', arguments: { kg: 10 } }))).toBe(
      'shipping 10 kg costs 20.00 EUR',
    );
  });

  it("partner's policy bounds its own tool, and never sees admin's", async () => {
    const partner = await connect('/partner/mcp');
    const heavy = await partner.callTool({ name: 'quote_shipping', arguments: { kg: 800 } });
    expect(heavy).toMatchObject({ isError: true, structuredContent: { decision: 'deny' } });
    const refund = await partner.callTool({ name: 'refund_order', arguments: { id: 'A-1' } });
    expect(refund).toMatchObject({ isError: true, structuredContent: { decision: 'deny' } });
  });

  it("a refund waits on the admin server's operator desk, and runs once an operator approves", async () => {
    const desk = app.get<McpOperatorDesk>(serverTokenOf(MCP_OPERATOR_DESK, 'admin'));
    const admin = await connect('/admin/mcp');
    const pending = firstValueFrom(desk.events$.pipe(filter((event) => event.type === 'pending')));
    const call = admin.callTool({ name: 'refund_order', arguments: { id: 'A-2' } });
    const { ask } = (await pending) as { ask: { id: string; prompt: string } };
    expect(ask.prompt).toBe('Refund order A-2?');
    const operator = { subject: 'ops', scopes: ['mcp:approve'] };
    expect((await desk.decide(ask.id, operator, { approve: true, via: 'api' })).ok).toBe(true);
    expect(text(await call)).toBe('refunded A-2');
    const report = await admin.callTool({ name: 'orders_report', arguments: {} });
    expect(report.structuredContent).toEqual({
      orders: [
        { id: 'A-1', total: 120, refunded: false },
        { id: 'A-2', total: 35, refunded: true },
      ],
    });
  });

  it("GET /admin/stats reads the admin server's counts through @InjectMcpWarden('admin')", async () => {
    await connect('/admin/mcp');
    const response = await fetch(`${base}/admin/stats`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ connections: expect.any(Number) });
  });
});
