import { Injectable, NotFoundException, type INestApplication } from '@nestjs/common';
import { McpError as SdkV1Error } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError } from '@modelcontextprotocol/server';
import { Test } from '@nestjs/testing';
import { McpModule, McpPrompt, McpResource, McpTool, McpWardenError } from '../../src/index.js';
import { McpTestClient } from '../../src/testing/index.js';

/** Handlers that fail the ways users' handlers do. */
@Injectable()
class FailingHandlers {
  @McpTool({ description: 'Throws the v1 SDK McpError' })
  v1() {
    throw new SdkV1Error(-32602, 'v1 says no', { field: 'id' });
  }

  @McpTool({ description: 'Throws the v2 SDK ProtocolError' })
  v2() {
    throw new ProtocolError(-32001, 'v2 says no');
  }

  @McpTool({ description: 'Throws our own error' })
  ours() {
    throw new McpWardenError(-32010, 'warden says no', { why: 'policy' });
  }

  @McpTool({ description: 'Throws a Nest HttpException' })
  missing() {
    throw new NotFoundException('Ticket 42 does not exist');
  }

  @McpTool({ description: 'Throws something internal' })
  broken() {
    throw new Error('connection string postgres://secret@db');
  }

  @McpResource({ uri: 'test://gone', name: 'gone' })
  gone() {
    throw new ProtocolError(-32002, 'Resource not found', { uri: 'test://gone' });
  }

  @McpPrompt({ description: 'Throws the v1 SDK McpError' })
  strict() {
    throw new SdkV1Error(-32602, 'prompt argument missing');
  }
}

describe('errors thrown by handlers', () => {
  let app: INestApplication;
  let client: McpTestClient;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRoot({ name: 'errors', version: '1.0.0' })],
      providers: [FailingHandlers],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    client = await McpTestClient.connect(app);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  it('an official SDK v1 McpError from a tool keeps its code and data', async () => {
    await expect(client.callTool('v1', {})).rejects.toMatchObject({
      code: -32602,
      data: { field: 'id' },
    });
  });

  it('an official SDK v2 ProtocolError from a tool keeps its code and message', async () => {
    await expect(client.callTool('v2', {})).rejects.toMatchObject({
      code: -32001,
      message: 'v2 says no',
    });
  });

  it('an McpWardenError from a tool keeps its code', async () => {
    await expect(client.callTool('ours', {})).rejects.toMatchObject({ code: -32010 });
  });

  it('an HttpException from a tool becomes an isError result carrying its message', async () => {
    const result = await client.callTool('missing', {});
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'Ticket 42 does not exist' }]);
  });

  it('anything else is an isError result with no internal text', async () => {
    const result = await client.callTool('broken', {});
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Tool broken failed' }],
      isError: true,
    });
  });

  it('SDK errors from resources and prompts keep their codes', async () => {
    await expect(client.readResource('test://gone')).rejects.toMatchObject({ code: -32002 });
    await expect(client.getPrompt('strict', {})).rejects.toMatchObject({ code: -32602 });
  });
});
