import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  LoggingMessageNotificationSchema,
  McpError,
  type CallToolResult,
  type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js';
import type { Readable } from 'node:stream';
import { MAIN_STDIO, StreamText, makeDataDir, removeDataDir } from './support/stdio-child.js';

/*
 * The built notes service (dist/bundle/main-stdio.mjs) driven by the official SDK
 * client over stdio. Run `npm run build` first.
 */

interface Connected {
  client: Client;
  transport: StdioClientTransport;
  stderr: StreamText;
}

async function connect(dataDir: string): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN_STDIO],
    env: { DATA_DIR: dataDir },
    stderr: 'pipe',
  });
  // With stderr 'pipe' the stream exists before start(), so nothing is missed.
  const stderr = new StreamText(transport.stderr as Readable);
  const client = new Client({ name: 'jest-sdk', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, stderr };
}

interface Note {
  id: string;
  title: string;
  body: string;
  tags: string[];
  createdAt: string;
}

async function createNote(client: Client, title: string, body = 'body text'): Promise<Note> {
  const result = (await client.callTool({
    name: 'create_note',
    arguments: { title, body, tags: ['jest'] },
  })) as CallToolResult;
  expect(result.isError).toBeFalsy();
  return result.structuredContent as unknown as Note;
}

async function search(client: Client, query: string): Promise<{ count: number; notes: Note[] }> {
  const result = (await client.callTool({
    name: 'search_notes',
    arguments: { query },
  })) as CallToolResult;
  expect(result.isError).toBeFalsy();
  return result.structuredContent as { count: number; notes: Note[] };
}

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  if (first?.type !== 'text')
    throw new Error(`expected text content, got ${JSON.stringify(first)}`);
  return first.text;
}

describe('notes service over stdio, driven by the SDK client', () => {
  let dataDir: string;
  let conn: Connected;
  const opened: Connected[] = [];

  beforeAll(async () => {
    dataDir = await makeDataDir();
    conn = await connect(dataDir);
    opened.push(conn);
  });

  afterAll(async () => {
    for (const each of opened) await each.client.close();
    await removeDataDir(dataDir);
  });

  it('initializes: server info and capabilities', () => {
    expect(conn.client.getServerVersion()).toEqual({ name: 'mcp-warden-notes', version: '0.1.0' });
    const capabilities = conn.client.getServerCapabilities();
    expect(capabilities).toEqual(
      expect.objectContaining({
        tools: expect.any(Object),
        resources: expect.any(Object),
        prompts: expect.any(Object),
        logging: expect.any(Object),
        completions: expect.any(Object),
      }),
    );
  });

  it('lists the notes tools with their annotations and derived input schemas', async () => {
    const { tools } = await conn.client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(byName).sort()).toEqual([
      'create_note',
      'delete_note',
      'export_notes',
      'search_notes',
      'suggest_title',
      'tag_note',
    ]);

    expect(byName.search_notes.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(byName.create_note.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      openWorldHint: false,
    });
    expect(byName.delete_note.annotations).toEqual({
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });

    expect(byName.search_notes.inputSchema).toMatchObject({
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 200 },
        limit: { type: 'integer', minimum: 1, maximum: 50 },
      },
      required: ['query'],
    });
    expect(byName.create_note.inputSchema).toMatchObject({
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 1, maxLength: 200 },
        body: { type: 'string', maxLength: 20000 },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 20 },
      },
    });
    expect([...(byName.create_note.inputSchema.required ?? [])].sort()).toEqual(['body', 'title']);
    expect(byName.delete_note.inputSchema).toMatchObject({
      type: 'object',
      properties: { id: { type: 'string', minLength: 1 } },
      required: ['id'],
    });
  });

  it('create_note then search_notes finds the note (structuredContent)', async () => {
    const note = await createNote(conn.client, 'Quarterly zebra planning', 'Stripes agenda');
    expect(note).toEqual({
      id: expect.any(String),
      title: 'Quarterly zebra planning',
      body: 'Stripes agenda',
      tags: ['jest'],
      createdAt: expect.any(String),
    });

    const found = await search(conn.client, 'zebra');
    expect(found.count).toBe(1);
    expect(found.notes).toEqual([note]);
  });

  it('create_note with invalid arguments is an isError result naming the property', async () => {
    const result = (await conn.client.callTool({
      name: 'create_note',
      arguments: { title: 'No body here' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('create_note');
    expect(textOf(result)).toMatch(/\bbody\b/);
    expect(textOf(result)).not.toMatch(/\btitle\b/);
  });

  it('delete_note without elicitation is denied with decision "ask"; the note survives', async () => {
    const note = await createNote(conn.client, 'Keep me around', 'undeletable');

    const result = (await conn.client.callTool({
      name: 'delete_note',
      arguments: { id: note.id },
    })) as CallToolResult;
    const denial = {
      error: 'authorization_required',
      tool: 'delete_note',
      decision: 'ask',
      detail: `Delete note ${note.id}? This cannot be undone.`,
    };
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result))).toEqual(denial);
    expect(result.structuredContent).toEqual(denial);

    const read = await conn.client.readResource({ uri: `notes://${note.id}` });
    expect(read.contents[0]).toMatchObject({ uri: `notes://${note.id}` });
    expect((await search(conn.client, 'undeletable')).notes.map((n) => n.id)).toEqual([note.id]);
  });

  it('a tool not in the policy is denied by the tool seam with decision "deny"', async () => {
    const result = (await conn.client.callTool({
      name: 'no_such_tool',
      arguments: { anything: 1 },
    })) as CallToolResult;
    const denial = {
      error: 'authorization_required',
      tool: 'no_such_tool',
      decision: 'deny',
      detail: 'tool_not_in_policy',
    };
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result))).toEqual(denial);
    expect(result.structuredContent).toEqual(denial);
  });

  it('lists resources and resource templates', async () => {
    const { resources } = await conn.client.listResources();
    expect(resources).toEqual([
      expect.objectContaining({
        uri: 'notes://index',
        name: 'notes_index',
        mimeType: 'application/json',
      }),
    ]);
    const { resourceTemplates } = await conn.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({
        uriTemplate: 'notes://{id}',
        name: 'note',
        mimeType: 'text/markdown',
      }),
    ]);
  });

  it('reads notes://index and notes://<id> (markdown)', async () => {
    const note = await createNote(conn.client, 'Readable note', 'Read me as markdown');

    const index = await conn.client.readResource({ uri: 'notes://index' });
    expect(index.contents).toHaveLength(1);
    expect(index.contents[0]).toMatchObject({ uri: 'notes://index', mimeType: 'application/json' });
    const entries = JSON.parse((index.contents[0] as { text: string }).text) as unknown[];
    expect(entries).toContainEqual({ id: note.id, title: 'Readable note', tags: ['jest'] });

    const one = await conn.client.readResource({ uri: `notes://${note.id}` });
    expect(one.contents).toEqual([
      {
        uri: `notes://${note.id}`,
        mimeType: 'text/markdown',
        text: '# Readable note\n\nRead me as markdown\n\nTags: jest\n',
      },
    ]);
  });

  it('reading a non-notes URI is refused by the read seam with -31403', async () => {
    const error = await conn.client.readResource({ uri: 'file:///etc/passwd' }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(McpError);
    const mcpError = error as McpError;
    expect(mcpError.code).toBe(-31403);
    expect(mcpError.message).toContain('authorization_required: resources/read');
    expect(mcpError.data).toEqual({
      error: 'authorization_required',
      method: 'resources/read',
      detail: 'outside_notes',
    });
  });

  it('lists prompts and gets summarize_note for a note', async () => {
    const note = await createNote(conn.client, 'Prompted note', 'Summarise this body');

    const { prompts } = await conn.client.listPrompts();
    expect(prompts).toEqual([
      expect.objectContaining({
        name: 'summarize_note',
        arguments: [expect.objectContaining({ name: 'id', required: true })],
      }),
    ]);

    const prompt = await conn.client.getPrompt({
      name: 'summarize_note',
      arguments: { id: note.id },
    });
    expect(prompt.messages).toHaveLength(1);
    expect(prompt.messages[0].role).toBe('user');
    expect(prompt.messages[0].content).toEqual({
      type: 'text',
      text: expect.stringContaining('# Prompted note\n\nSummarise this body'),
    });
  });

  it('completes the prompt argument id (ref/prompt) with the created id', async () => {
    const note = await createNote(conn.client, 'Completable note');
    const { completion } = await conn.client.complete({
      ref: { type: 'ref/prompt', name: 'summarize_note' },
      argument: { name: 'id', value: note.id.slice(0, 4) },
    });
    expect(completion.values).toContain(note.id);
    expect(completion.values.every((value) => value.startsWith(note.id.slice(0, 4)))).toBe(true);
  });

  it('after setLoggingLevel("debug"), create_note sends a notifications/message log', async () => {
    const logs: LoggingMessageNotification['params'][] = [];
    let received: (params: LoggingMessageNotification['params']) => void = () => undefined;
    const created = new Promise<LoggingMessageNotification['params']>((resolve) => {
      received = resolve;
    });
    conn.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params);
      const data = notification.params.data as { event?: string } | undefined;
      if (data?.event === 'note_created') received(notification.params);
    });
    try {
      await conn.client.setLoggingLevel('debug');
      const note = await createNote(conn.client, 'Logged note');
      const log = await created;
      expect(log).toEqual({
        level: 'info',
        logger: 'notes',
        data: { event: 'note_created', id: note.id },
      });
    } finally {
      conn.client.removeNotificationHandler('notifications/message');
    }
  });

  it('a call aborted right away rejects on the client; the server stays responsive', async () => {
    const controller = new AbortController();
    const call = conn.client.callTool(
      { name: 'search_notes', arguments: { query: 'anything' } },
      undefined,
      { signal: controller.signal },
    );
    controller.abort();
    await expect(call).rejects.toThrow(/abort/i);

    await expect(conn.client.ping()).resolves.toEqual({});
    const again = (await conn.client.callTool({
      name: 'search_notes',
      arguments: { query: 'anything' },
    })) as CallToolResult;
    expect(again.isError).toBeFalsy();
  });

  it('writes audit JSON lines to stderr for tool and read seam decisions', async () => {
    await search(conn.client, 'audited');
    await conn.client.readResource({ uri: 'file:///etc/hosts' }).catch(() => undefined);
    await conn.client.callTool({ name: 'unlisted_audit_tool', arguments: {} });

    await conn.stderr.waitForAudit({ seam: 'tool', name: 'unlisted_audit_tool' });
    await conn.stderr.waitForAudit({ seam: 'read', name: 'resources/read', decision: 'deny' });
    const events = conn.stderr.auditEvents();
    expect(events).toContainEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      kind: 'decision',
      time: expect.any(String),
      connId: expect.any(String),
      requestId: expect.any(Number),
      transport: 'stdio',
      era: 'legacy',
      seam: 'tool',
      name: 'search_notes',
      decision: 'allow',
      argumentsDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
      // The Cedar policy that decided, and the digest of the set (docs/policy.md).
      policies: ['notes-open-tools'],
      policyVersion: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    // The call ran: its outcome names the decision.
    const decided = events.find((e) => e.kind === 'decision' && e.name === 'search_notes');
    expect(events).toContainEqual(
      expect.objectContaining({ kind: 'outcome', of: decided?.id, outcome: 'ok' }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        transport: 'stdio',
        seam: 'tool',
        name: 'unlisted_audit_tool',
        decision: 'deny',
        detail: 'tool_not_in_policy',
        policies: ['unknown-action-denies'],
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        transport: 'stdio',
        seam: 'read',
        name: 'resources/read',
        decision: 'deny',
        detail: 'outside_notes',
        policies: ['reads-outside-notes-deny'],
      }),
    );
  });

  it('persists notes: a new process on the same DATA_DIR still finds them', async () => {
    const note = await createNote(conn.client, 'Persistent platypus', 'survives restarts');
    await conn.client.close();
    await conn.stderr.untilEnd();

    const next = await connect(dataDir);
    opened.push(next);
    conn = next;
    const found = await search(next.client, 'platypus');
    expect(found.notes).toEqual([note]);
  });
});
