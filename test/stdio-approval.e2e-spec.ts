import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  type CallToolResult,
  type CreateMessageRequest,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { MAIN_STDIO, makeDataDir, removeDataDir } from './support/stdio-child.js';

const sampled: CreateMessageRequest[] = [];

type Answer = (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;

/** The notes service over stdio, with an SDK client that declares elicitation and answers with `answer`. */
async function connect(dataDir: string, answer: { current: Answer }) {
  const client = new Client(
    { name: 'jest-approver', version: '1.0.0' },
    { capabilities: { elicitation: {}, sampling: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, (request) => answer.current(request));
  client.setRequestHandler(CreateMessageRequestSchema, (request) => {
    sampled.push(request);
    return {
      role: 'assistant',
      content: { type: 'text', text: ' Weekly sync notes ' },
      model: 'jest-model',
      stopReason: 'endTurn',
    };
  });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN_STDIO],
    env: { ...(process.env as Record<string, string>), DATA_DIR: dataDir },
    stderr: 'pipe',
  });
  await client.connect(transport);
  return client;
}

const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

describe('approval over stdio with the official SDK client', () => {
  let dataDir: string;
  let client: Client;
  const answer: { current: Answer } = { current: () => ({ action: 'decline' }) };

  beforeAll(async () => {
    dataDir = await makeDataDir();
    client = await connect(dataDir, answer);
  });
  afterAll(async () => {
    await client?.close();
    await removeDataDir(dataDir);
  });

  async function createNote(title: string): Promise<string> {
    const result = (await client.callTool({
      name: 'create_note',
      arguments: { title, body: 'body' },
    })) as CallToolResult;
    return (result.structuredContent as { id: string }).id;
  }

  async function exists(id: string): Promise<boolean> {
    const index = await client.readResource({ uri: 'notes://index' });
    const notes = JSON.parse((index.contents[0] as { text: string }).text) as { id: string }[];
    return notes.some((note) => note.id === id);
  }

  it('an approved delete runs, after the user saw the policy prompt', async () => {
    const id = await createNote('approve me');
    const seen: ElicitRequest[] = [];
    answer.current = (request) => {
      seen.push(request);
      return { action: 'accept', content: { approve: true } };
    };
    const result = (await client.callTool({
      name: 'delete_note',
      arguments: { id },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe(`Deleted note ${id}`);
    expect(seen).toHaveLength(1);
    expect(seen[0].params).toMatchObject({
      message: `Delete note ${id}? This cannot be undone.`,
      requestedSchema: { type: 'object', required: ['approve'] },
    });
    expect(await exists(id)).toBe(false);
  });

  it.each([
    [{ action: 'decline' } as ElicitResult, 'user declined'],
    [{ action: 'cancel' } as ElicitResult, 'user cancelled'],
    [{ action: 'accept', content: { approve: false } } as ElicitResult, 'user did not approve'],
  ])('answer %p denies with "%s" and the note survives', async (reply, detail) => {
    const id = await createNote('keep me');
    answer.current = () => reply;
    const result = (await client.callTool({
      name: 'delete_note',
      arguments: { id },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(JSON.parse(text(result))).toEqual({
      error: 'authorization_required',
      tool: 'delete_note',
      decision: 'ask',
      detail,
    });
    expect(await exists(id)).toBe(true);
  });

  it('stays responsive to other requests while a call is parked', async () => {
    const id = await createNote('parked');
    let approve!: () => void;
    let asked!: () => void;
    const wasAsked = new Promise<void>((resolve) => (asked = resolve));
    answer.current = () =>
      new Promise<ElicitResult>((resolve) => {
        approve = () => resolve({ action: 'accept', content: { approve: true } });
        asked();
      });
    const call = client.callTool({ name: 'delete_note', arguments: { id } });
    await wasAsked;
    // While the delete waits for its human, the server serves other requests.
    await expect(client.ping()).resolves.toEqual({});
    expect(await exists(id)).toBe(true);
    approve();
    expect(text((await call) as CallToolResult)).toBe(`Deleted note ${id}`);
  });

  it('tag_note asks the user for a missing tag with ctx.elicit', async () => {
    const id = await createNote('tag me');
    answer.current = (request) => {
      expect(request.params.message).toBe(`Which tag should note ${id} get?`);
      return { action: 'accept', content: { tag: 'urgent' } };
    };
    const result = (await client.callTool({
      name: 'tag_note',
      arguments: { id },
    })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ id, tags: ['urgent'] });
  });

  it('suggest_title has the client sample its model (sampling/createMessage)', async () => {
    const id = await createNote('untitled');
    const result = (await client.callTool({
      name: 'suggest_title',
      arguments: { id },
    })) as CallToolResult;
    expect(result.structuredContent).toEqual({
      id,
      current: 'untitled',
      suggested: 'Weekly sync notes',
    });
    expect(sampled).toHaveLength(1);
    expect(sampled[0].params).toMatchObject({
      maxTokens: 60,
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: 'Suggest a short title for this note:\n\nbody' },
        },
      ],
    });
  });
});
