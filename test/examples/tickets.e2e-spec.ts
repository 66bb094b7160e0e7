import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { TicketsModule } from '../../examples/tickets/tickets.module.js';
import { TicketsStore } from '../../examples/tickets/tickets.store.js';
import { McpTestClient, McpTestClientError } from '../../src/testing/index.js';

/*
 * The tickets example, booted the way its own tests would boot it: its module
 * in a testing module, driven through McpTestClient (no socket in between).
 */

const closer = { subject: 'agent-7', scopes: ['tickets:close'] };
const admin = { subject: 'root', scopes: ['tickets:admin'] };

describe('examples/tickets', () => {
  let app: INestApplication;
  let client: McpTestClient;

  beforeEach(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [TicketsModule] }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    client = await McpTestClient.connect(app);
  });
  afterEach(async () => {
    await client.close();
    await app.close();
  });

  it('lists the tools the caller may call: a denied tool is hidden', async () => {
    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'close_ticket',
      'find_tickets',
      'open_ticket',
    ]);
    const find = tools.find((tool) => tool.name === 'find_tickets');
    expect(find?.inputSchema.properties).toHaveProperty('status');
  });

  it('calls the DTO tools; invalid arguments are an isError result', async () => {
    const opened = await client.callTool('open_ticket', { title: 'Laptop fan is loud' });
    expect(opened.structuredContent).toMatchObject({ id: 'T-3', status: 'open' });

    const found = await client.callTool('find_tickets', { text: 'fan' });
    expect(found.structuredContent).toMatchObject({ count: 1, tickets: [{ id: 'T-3' }] });

    const invalid = await client.callTool('find_tickets', { status: 'pending' });
    expect(invalid.isError).toBe(true);
  });

  it('asks before closing a ticket: an approval runs it, a decline does not', async () => {
    const asked = client.approveNext();
    const closed = await client.callTool('close_ticket', { id: 'T-1' });
    expect(closed.structuredContent).toEqual({ id: 'T-1', status: 'closed' });
    await expect(asked).resolves.toEqual({
      tool: 'close_ticket',
      arguments: { id: 'T-1' },
      message: 'Close ticket T-1?',
    });

    // With nothing queued, the client declines: silence is never consent.
    const declined = await client.callTool('close_ticket', { id: 'T-2' });
    expect(declined.isError).toBe(true);
    // close_ticket declares an output schema the caller can see: its deny is text only, since
    // clients validate structuredContent against that schema even on an isError result.
    expect(declined.structuredContent).toBeUndefined();
    expect(declined.content).toHaveLength(1);
    const text = declined.content[0] as { type: string; text: string };
    expect(text.type).toBe('text');
    expect(JSON.parse(text.text)).toEqual({
      error: 'authorization_required',
      tool: 'close_ticket',
      decision: 'ask',
      detail: 'user declined',
    });
    expect(app.get(TicketsStore).get('T-2')?.status).toBe('open');
  });

  it('lets a principal with the scope close without asking; purge needs an admin', async () => {
    const agent = await McpTestClient.connect(app, { principal: closer });
    const root = await McpTestClient.connect(app, { principal: admin });
    try {
      expect((await agent.callTool('close_ticket', { id: 'T-2' })).isError).toBeFalsy();
      expect(agent.approvals).toEqual([]);

      const denied = await agent.callTool('purge_closed');
      expect(denied.structuredContent).toMatchObject({ decision: 'deny', detail: 'admins_only' });

      root.approveNext();
      const purged = await root.callTool('purge_closed');
      expect(purged.content).toEqual([{ type: 'text', text: 'Purged 1 tickets' }]);
    } finally {
      await agent.close();
      await root.close();
    }
  });

  it('reads its resource and template, completes ids and gets the prompt', async () => {
    const open = await client.readResource('tickets://open');
    expect(JSON.parse(String((open.contents[0] as { text: string }).text))).toEqual([
      { id: 'T-1', title: 'Printer on floor 2 is jammed' },
      { id: 'T-2', title: 'VPN drops every hour' },
    ]);

    const ticket = await client.readResource('tickets://T-2');
    expect(ticket.contents[0]).toMatchObject({ mimeType: 'text/markdown' });

    const ids = await client.complete(
      { type: 'ref/resource', uri: 'tickets://{id}' },
      { name: 'id', value: 'T-' },
    );
    expect(ids.completion.values).toEqual(['T-1', 'T-2']);

    const prompt = await client.getPrompt('triage_ticket', { id: 'T-1' });
    expect(prompt.messages[0].content).toMatchObject({ type: 'text' });
  });

  it('the read seam refuses resources outside tickets://, and unknown tickets are -32002', async () => {
    await expect(client.readResource('file:///etc/passwd')).rejects.toMatchObject({
      code: -31403,
      message: 'authorization_required: resources/read',
    });
    const missing = client.readResource('tickets://T-99');
    await expect(missing).rejects.toBeInstanceOf(McpTestClientError);
    await expect(missing).rejects.toMatchObject({ code: -32002 });
  });
});
