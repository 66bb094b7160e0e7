import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { LATEST_PROTOCOL_VERSION, McpModule, McpWarden, McpWardenError } from '../../src/index.js';
import { McpTestClient, McpTestClientError } from '../../src/testing/index.js';
import { createDeskApp, deskPolicy, DeskTools } from './desk-app.js';

const alice = { subject: 'alice', scopes: [] };

describe('McpTestClient: typed calls', () => {
  let app: INestApplication;
  let client: McpTestClient;

  beforeEach(async () => {
    app = await createDeskApp();
    client = await McpTestClient.connect(app, { principal: alice });
  });
  afterEach(async () => {
    await client.close();
    await app.close();
  });

  it('performs the handshake at connect, with the latest protocol version', () => {
    expect(client.initializeResult.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(client.initializeResult.serverInfo).toMatchObject({ name: 'desk', version: '1.0.0' });
    expect(client.initializeResult.capabilities.tools).toBeDefined();
  });

  it('lists every tool across pages', async () => {
    const firstPage = await client.request<{ tools: unknown[]; nextCursor?: string }>('tools/list');
    expect(firstPage.tools).toHaveLength(2);
    expect(firstPage.nextCursor).toEqual(expect.any(String));

    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['colour', 'greet', 'now', 'purge']);
    const greet = tools.find((tool) => tool.name === 'greet');
    expect(greet?.inputSchema.properties).toHaveProperty('name');
  });

  it('calls a read tool and a DTO tool, with typed results', async () => {
    const now = await client.callTool('now');
    expect(now.content).toEqual([{ type: 'text', text: 'noon' }]);

    const greet = await client.callTool('greet', { name: 'Ann' });
    expect(greet.isError).toBeFalsy();
    expect(greet.structuredContent).toEqual({ greeting: 'Hello, Ann' });
  });

  it('reports input that fails the DTO as an error result', async () => {
    const result = await client.callTool('greet', { name: '' });
    expect(result.isError).toBe(true);
  });

  it('lists and reads resources and templates', async () => {
    const resources = await client.listResources();
    expect(resources).toEqual([expect.objectContaining({ uri: 'desk://motd', name: 'motd' })]);
    const templates = await client.listResourceTemplates();
    expect(templates).toEqual([
      expect.objectContaining({ uriTemplate: 'desk://people/{name}', name: 'person' }),
    ]);

    const motd = await client.readResource('desk://motd');
    expect(motd.contents).toEqual([
      { uri: 'desk://motd', mimeType: 'text/plain', text: 'Be kind' },
    ]);
    const person = await client.readResource('desk://people/ann');
    expect(person.contents[0]).toMatchObject({ uri: 'desk://people/ann', text: 'Person ann' });
  });

  it('lists and gets prompts', async () => {
    const prompts = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['greeting']);

    const prompt = await client.getPrompt('greeting', { name: 'Ann' });
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Greet Ann' } },
    ]);
  });

  it('completes prompt and tool arguments', async () => {
    const forPrompt = await client.complete(
      { type: 'ref/prompt', name: 'greeting' },
      { name: 'name', value: 'al' },
    );
    expect(forPrompt.completion.values).toEqual(['alice', 'albert']);

    const forTool = await client.complete(
      { type: 'ref/tool', name: 'greet' },
      { name: 'name', value: 'b' },
    );
    expect(forTool.completion.values).toEqual(['bob']);
  });

  it('rejects a JSON-RPC error reply with its code, message and data', async () => {
    const unknownTool = client.callTool('nope');
    await expect(unknownTool).rejects.toBeInstanceOf(McpTestClientError);
    await expect(unknownTool).rejects.toBeInstanceOf(McpWardenError);
    await expect(unknownTool).rejects.toMatchObject({ code: -32602, method: 'tools/call' });

    await expect(client.readResource('desk://missing')).rejects.toMatchObject({
      code: -32002,
      data: { uri: 'desk://missing' },
    });
    await expect(client.request('no/such/method')).rejects.toMatchObject({
      code: -32601,
      message: expect.stringContaining('no/such/method'),
    });
  });

  it("declines a tool's own elicitation by default, and answers it with onRequest()", async () => {
    expect((await client.callTool('colour')).content).toEqual([
      { type: 'text', text: 'no colour' },
    ]);

    client.onRequest('elicitation/create', (params) => {
      expect(params.message).toBe('Favourite colour?');
      return { action: 'accept', content: { colour: 'teal' } };
    });
    expect((await client.callTool('colour')).content).toEqual([
      { type: 'text', text: 'likes teal' },
    ]);
    // A tool's own elicitation is not an approval.
    expect(client.approvals).toEqual([]);
  });

  it('records notifications and waits for the next one', async () => {
    const changed = client.nextNotification('notifications/tools/list_changed');
    app.get(McpWarden).notify('notifications/tools/list_changed');
    await expect(changed).resolves.toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
    });
    expect(client.notifications.map((notification) => notification.method)).toEqual([
      'notifications/tools/list_changed',
    ]);
  });
});

describe('McpTestClient: connections', () => {
  let app: INestApplication;

  beforeEach(async () => {
    app = await createDeskApp();
  });
  afterEach(() => app.close());

  it('gives each client its own connection, and close() drops it', async () => {
    const warden = app.get(McpWarden);
    const first = await McpTestClient.connect(app);
    const second = await McpTestClient.connect(app);
    expect(first.connId).not.toBe(second.connId);
    expect(warden.stats().connections).toBe(2);

    await first.close();
    expect(warden.stats().connections).toBe(1);
    await second.close();
    expect(warden.stats()).toEqual({ connections: 0, inFlight: 0, pendingClientRequests: 0 });
  });

  it('refuses requests once closed', async () => {
    const client = await McpTestClient.connect(app);
    await client.close();
    await expect(client.listTools()).rejects.toThrow('closed');
  });

  it('uses the declared transport unless told otherwise', async () => {
    const seen: string[] = [];
    await app.close();
    app = await createDeskApp({
      transport: 'stdio',
      authorizer: (_name, _args, context) => {
        seen.push(context.transport);
        return { kind: 'allow' };
      },
    });
    const declared = await McpTestClient.connect(app);
    const asHttp = await McpTestClient.connect(app, { transport: 'http' });
    await declared.callTool('now');
    await asHttp.callTool('now');
    expect(seen).toEqual(['stdio', 'http']);
    expect(declared.origin.transport).toBe('stdio');
    await declared.close();
    await asHttp.close();
  });

  it('connects to a TestingModule as well as to an app', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRoot({ name: 'plain', version: '2.0.0', authorizer: deskPolicy() })],
      providers: [DeskTools],
    }).compile();
    await moduleRef.init();
    const client = await McpTestClient.connect(moduleRef, { principal: alice });
    expect(client.initializeResult.serverInfo.name).toBe('plain');
    expect((await client.callTool('now')).content).toEqual([{ type: 'text', text: 'noon' }]);
    await client.close();
    await moduleRef.close();
  });
});
