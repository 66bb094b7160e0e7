import { Client, type VersionNegotiationMode } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { MAIN_STDIO, makeDataDir, removeDataDir } from '../support/stdio-child.js';
import { approvalQuestion, denial, MODERN, SERVER_INFO_KEY, tamper } from './modern-app.js';
import { sdkAnswers, type SdkAnswers } from './sdk-v2-support.js';

/*
 * The official SDK v2 client over stdio against the built notes service
 * (dist/bundle/main-stdio.mjs; `npm run build` first), pinned to 2026-07-28 and
 * in auto mode. The service asks a human before `delete_note`.
 */

const SERVER = { [SERVER_INFO_KEY]: { name: 'mcp-warden-notes', version: '0.1.0' } };
const deletePrompt = (id: string) => `Delete note ${id}? This cannot be undone.`;

interface Note {
  id: string;
  title: string;
  body: string;
  tags: string[];
}

describe('SDK v2 client over stdio (the notes service)', () => {
  let dataDir: string;
  let client: Client;
  let answers: SdkAnswers;

  async function connect(mode: VersionNegotiationMode): Promise<Client> {
    client = new Client(
      { name: 'sdk-v2', version: '2.4.0' },
      { capabilities: { elicitation: {}, sampling: {}, roots: {} }, versionNegotiation: { mode } },
    );
    answers = sdkAnswers(client);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN_STDIO],
      env: { DATA_DIR: dataDir },
      stderr: 'ignore',
    });
    await client.connect(transport);
    return client;
  }

  async function createNote(title: string): Promise<Note> {
    const result = await client.callTool({
      name: 'create_note',
      arguments: { title, body: `${title} body`, tags: ['t'] },
    });
    return result.structuredContent as Note;
  }

  beforeEach(async () => {
    dataDir = await makeDataDir();
  });
  afterEach(async () => {
    await client?.close();
    await removeDataDir(dataDir);
  });

  describe('pinned to 2026-07-28', () => {
    beforeEach(() => connect({ pin: MODERN }));

    it('negotiates the modern era with the service', () => {
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
      expect(client.getServerVersion()).toEqual({ name: 'mcp-warden-notes', version: '0.1.0' });
      expect(client.getInstructions()).toBe(
        'Team notes: search, create and (with approval) delete notes.',
      );
    });

    it('lists tools, calls one, reads a resource, gets a prompt and completes an argument', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'create_note',
        'delete_note',
        'export_notes',
        'search_notes',
        'suggest_title',
        'tag_note',
      ]);
      const note = await createNote('Standup');
      expect(note).toMatchObject({ title: 'Standup', body: 'Standup body', tags: ['t'] });
      const found = await client.callTool({
        name: 'search_notes',
        arguments: { query: 'Standup' },
      });
      expect(found.structuredContent).toMatchObject({ count: 1, notes: [{ id: note.id }] });

      expect(await client.readResource({ uri: 'notes://index' })).toEqual({
        _meta: SERVER,
        contents: [
          {
            uri: 'notes://index',
            mimeType: 'application/json',
            text: JSON.stringify([{ id: note.id, title: 'Standup', tags: ['t'] }]),
          },
        ],
        ttlMs: 0,
        cacheScope: 'private',
      });
      const prompt = await client.getPrompt({ name: 'summarize_note', arguments: { id: note.id } });
      expect(prompt.messages).toEqual([
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Summarise this note in three bullet points.\n\n# Standup\n\nStandup body\n\nTags: t\n`,
          },
        },
      ]);
      const completion = await client.complete({
        ref: { type: 'ref/prompt', name: 'summarize_note' },
        argument: { name: 'id', value: note.id.slice(0, 4) },
      });
      expect(completion.completion.values).toEqual([note.id]);
    });

    it('approval accepted: the delete runs once and the note is gone', async () => {
      const note = await createNote('Old');
      answers.elicit = { action: 'accept', content: { approve: true } };
      const result = await client.callTool({ name: 'delete_note', arguments: { id: note.id } });
      expect(result).toEqual({
        _meta: SERVER,
        content: [{ type: 'text', text: `Deleted note ${note.id}` }],
      });
      expect(answers.asked).toEqual([
        {
          method: 'elicitation/create',
          params: approvalQuestion('delete_note', deletePrompt(note.id)).params,
        },
      ]);
      const again = await client.callTool({ name: 'search_notes', arguments: { query: 'Old' } });
      expect(again.structuredContent).toEqual({ count: 0, notes: [] });
    });

    it('approval declined: the deny result with detail "user declined", the note stays', async () => {
      const note = await createNote('Keep');
      answers.elicit = { action: 'decline' };
      const result = await client.callTool({ name: 'delete_note', arguments: { id: note.id } });
      expect(result).toEqual({ _meta: SERVER, ...denial('delete_note', 'ask', 'user declined') });
      const still = await client.callTool({ name: 'search_notes', arguments: { query: 'Keep' } });
      expect(still.structuredContent).toMatchObject({ count: 1 });
    });

    it('a tampered requestState: deny "approval state invalid", the note stays', async () => {
      const note = await createNote('Guarded');
      const first = await client.request(
        { method: 'tools/call', params: { name: 'delete_note', arguments: { id: note.id } } },
        { allowInputRequired: true },
      );
      expect(first).toEqual({
        resultType: 'input_required',
        inputRequests: { approval: approvalQuestion('delete_note', deletePrompt(note.id)) },
        requestState: expect.any(String),
      });
      const retry = await client.request({
        method: 'tools/call',
        params: {
          name: 'delete_note',
          arguments: { id: note.id },
          inputResponses: { approval: { action: 'accept', content: { approve: true } } },
          requestState: tamper((first as unknown as { requestState: string }).requestState),
        },
      });
      expect(retry).toEqual({
        _meta: SERVER,
        ...denial('delete_note', 'ask', 'approval state invalid'),
      });
      const still = await client.callTool({
        name: 'search_notes',
        arguments: { query: 'Guarded' },
      });
      expect(still.structuredContent).toMatchObject({ count: 1 });
    });
  });

  describe('auto mode', () => {
    it('picks the modern era (its server/discover probe is answered) and the approval round works', async () => {
      await connect('auto');
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
      const note = await createNote('Auto');
      answers.elicit = { action: 'accept', content: { approve: true } };
      const result = await client.callTool({ name: 'delete_note', arguments: { id: note.id } });
      expect(result.content).toEqual([{ type: 'text', text: `Deleted note ${note.id}` }]);
    });
  });
});
