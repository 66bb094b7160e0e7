import { MAIN_STDIO, StdioScript, makeDataDir, removeDataDir } from '../support/stdio-child.js';

type Message = Record<string, any>;

/** The notes service over stdio, started by an operator who vouches for `env`'s principal. */
async function service(dataDir: string, env: Record<string, string>) {
  const child = new StdioScript(MAIN_STDIO, { DATA_DIR: dataDir, ...env });
  await child.initialize({});
  child.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return child;
}

async function call(child: StdioScript, name: string, args: object): Promise<Message> {
  const reply = await child.request('tools/call', { name, arguments: args });
  return reply.result as Message;
}

describe('the notes service: the stdio caller comes from the environment', () => {
  let dataDir: string;
  const children: StdioScript[] = [];

  beforeEach(async () => {
    dataDir = await makeDataDir();
  });
  afterEach(async () => {
    for (const child of children.splice(0)) await child.dispose();
    await removeDataDir(dataDir);
  });

  it('a note records the configured subject as its author', async () => {
    const child = await service(dataDir, { MCP_PRINCIPAL_SUBJECT: 'carol' });
    children.push(child);
    const note = await call(child, 'create_note', { title: 'Q3', body: 'plan' });
    expect(note.structuredContent).toMatchObject({ title: 'Q3', author: 'carol' });
  });

  it('a notes:admin caller deletes without being asked; others are asked (and denied when they cannot be)', async () => {
    const admin = await service(dataDir, {
      MCP_PRINCIPAL_SUBJECT: 'root',
      MCP_PRINCIPAL_SCOPES: 'notes:read notes:admin',
    });
    children.push(admin);
    const { id } = (await call(admin, 'create_note', { title: 'old', body: 'x' }))
      .structuredContent as { id: string };
    const deleted = await call(admin, 'delete_note', { id });
    expect(deleted.isError).toBeUndefined();
    expect(deleted.content).toEqual([{ type: 'text', text: `Deleted note ${id}` }]);

    const plain = await service(dataDir, { MCP_PRINCIPAL_SUBJECT: 'dave' });
    children.push(plain);
    const { id: other } = (await call(plain, 'create_note', { title: 'new', body: 'y' }))
      .structuredContent as { id: string };
    // This client declared no elicitation, so the ask becomes the deny that carries the prompt.
    const refused = await call(plain, 'delete_note', { id: other });
    expect(refused.structuredContent).toMatchObject({ decision: 'ask', tool: 'delete_note' });
  });

  it('without a configured subject the caller is anonymous: notes have no author', async () => {
    const child = await service(dataDir, {});
    children.push(child);
    const note = await call(child, 'create_note', { title: 'anon', body: 'z' });
    expect(note.structuredContent).not.toHaveProperty('author');
  });
});
