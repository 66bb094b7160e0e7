import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  type CallToolResult,
  type ElicitRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { filter, firstValueFrom } from 'rxjs';
import { AppModule } from '../../src/app/app.module.js';
import { openSqlite } from '../../src/app/database/sqlite.connection.js';
import { sqliteFile } from '../../src/app/database/notes-database.options.js';
import { NotesStore } from '../../src/app/notes/notes.store.js';
import { MCP_OPERATOR_DESK, type McpOperatorAsk, type McpOperatorDesk } from '../../src/index.js';
import { freePort } from '../auth/auth-app.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import { setProcessEnv } from '../support/process-env.js';
import { makeDataDir, removeDataDir } from '../support/stdio-child.js';

/*
 * The notes service's delete policy (four eyes): deleting a note someone else
 * wrote waits for an operator, never for the caller; one's own note asks the
 * caller; `notes:admin` deletes unasked; a store that cannot say whose note it
 * is denies. The real service module, bearer tokens from a real oidc-provider.
 */

let issuer: TestIssuer;
let dataDir: string;
let app: INestApplication;
let url: string;
let desk: McpOperatorDesk;
let restoreEnv: (() => void) | undefined;
const clients: Client[] = [];

beforeAll(async () => {
  issuer = await startTestIssuer();
  dataDir = await makeDataDir();
  const port = await freePort();
  url = `http://127.0.0.1:${port}/mcp`;
  restoreEnv = setProcessEnv({
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    OAUTH_ISSUER: issuer.issuer,
    OAUTH_AUDIENCE: url,
    OAUTH_JWKS_URI: issuer.jwksUri,
  });
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forTransport('http')],
  }).compile();
  app = moduleRef.createNestApplication({ logger: false });
  await app.listen(port, '127.0.0.1');
  desk = app.get<McpOperatorDesk>(MCP_OPERATOR_DESK);
});
afterAll(async () => {
  await app?.close();
  await issuer?.close();
  await removeDataDir(dataDir);
  restoreEnv?.();
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** A caller `sub` with `scope`; it declares elicitation and accepts every ask it is shown. */
async function caller(sub: string, scope = 'notes:write') {
  const token = await issuer.mintToken({ aud: url, sub, scope });
  const asked: ElicitRequest[] = [];
  const client = new Client({ name: sub, version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request);
    return { action: 'accept', content: { approve: true } };
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  const call = (name: string, args: object) =>
    client.callTool({
      name,
      arguments: args as Record<string, unknown>,
    }) as Promise<CallToolResult>;
  return { client, asked, call };
}

async function noteBy(sub: string, title: string): Promise<string> {
  const author = await caller(sub);
  const created = await author.call('create_note', { title, body: 'body' });
  expect(created.structuredContent).toMatchObject({ title, author: sub });
  return (created.structuredContent as { id: string }).id;
}

const nextAsk = () =>
  firstValueFrom(desk.events$.pipe(filter((event) => event.type === 'pending'))).then(
    (event) => (event as { ask: McpOperatorAsk }).ask,
  );

const deleted = (id: string) => [{ type: 'text', text: `Deleted note ${id}` }];

describe('the notes service: deleting a note', () => {
  it("deleting another author's note waits for an operator, not the caller", async () => {
    const id = await noteBy('alice', 'alice wrote this');
    const bob = await caller('bob');
    const asked = nextAsk();
    const result = bob.call('delete_note', { id });
    const ask = await asked;
    expect(ask).toMatchObject({
      tool: 'delete_note',
      prompt: `Delete note ${id}, written by alice? This cannot be undone.`,
      caller: { subject: 'bob', issuer: issuer.issuer },
      preview: JSON.stringify({ id }),
    });
    // The caller is not the one who decides, even holding the approver scope.
    const self = { subject: 'bob', issuer: issuer.issuer, scopes: ['mcp:approve'] };
    expect(await desk.decide(ask.id, self, { approve: true, via: 'api' })).toEqual({
      ok: false,
      problem: 'own call',
    });
    expect(await app.get(NotesStore).get(id)).toBeDefined();
    const olga = { subject: 'olga', issuer: issuer.issuer, scopes: ['mcp:approve'] };
    expect(await desk.decide(ask.id, olga, { approve: true, via: 'api' })).toMatchObject({
      ok: true,
    });
    expect((await result).content).toEqual(deleted(id));
    expect(bob.asked).toEqual([]);
    expect(await app.get(NotesStore).get(id)).toBeUndefined();
    expect((await desk.pending()).total).toBe(0);
  });

  it("an operator's deny keeps another author's note", async () => {
    const id = await noteBy('alice', 'keep me');
    const bob = await caller('bob');
    const asked = nextAsk();
    const result = bob.call('delete_note', { id });
    const ask = await asked;
    const olga = { subject: 'olga', issuer: issuer.issuer, scopes: ['mcp:approve'] };
    await desk.decide(ask.id, olga, { approve: false, reason: 'it is alice’s', via: 'api' });
    expect((await result).structuredContent).toEqual({
      error: 'authorization_required',
      tool: 'delete_note',
      decision: 'ask',
      detail: 'operator denied: it is alice’s',
    });
    expect(await app.get(NotesStore).get(id)).toBeDefined();
  });

  it("deleting one's own note asks the caller", async () => {
    const id = await noteBy('alice', 'mine');
    const alice = await caller('alice');
    const result = await alice.call('delete_note', { id });
    expect(result.content).toEqual(deleted(id));
    expect(alice.asked.map((request) => request.params.message)).toEqual([
      `Delete note ${id}? This cannot be undone.`,
    ]);
    expect((await desk.pending()).total).toBe(0);
    expect(await app.get(NotesStore).get(id)).toBeUndefined();
  });

  it('a notes:admin caller deletes without asking, whoever wrote the note', async () => {
    const id = await noteBy('alice', 'for the admin');
    const root = await caller('root', 'notes:write notes:admin');
    const asks: McpOperatorAsk[] = [];
    const watching = desk.events$.subscribe((event) => {
      if (event.type === 'pending') asks.push(event.ask);
    });
    try {
      expect((await root.call('delete_note', { id })).content).toEqual(deleted(id));
    } finally {
      watching.unsubscribe();
    }
    expect(root.asked).toEqual([]);
    expect(asks).toEqual([]);
  });

  it('an id the store does not know asks the caller (the tool then refuses); a malformed one asks nobody', async () => {
    const bob = await caller('bob');
    const unknown = await bob.call('delete_note', { id: 'no-such' });
    expect(unknown).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'No note with id no-such' }],
    });
    // Arguments that fail validation are refused before anyone is asked.
    const malformed = await bob.call('delete_note', { id: 42 });
    expect(malformed).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringMatching(/^Invalid arguments for tool/) }],
    });
    expect(bob.asked.map((request) => request.params.message)).toEqual([
      'Delete note no-such? This cannot be undone.',
    ]);
    expect((await desk.pending()).total).toBe(0);
  });

  it('a store failure at the seam denies: neither the caller nor an operator is asked', async () => {
    const id = await noteBy('alice', 'survives');
    const bob = await caller('bob');
    // Break the real database under the running service: the notes table goes away.
    const sqlite = await openSqlite(sqliteFile({ dataDir }));
    sqlite.prepare('alter table notes rename to notes_away').run([]);
    let result: CallToolResult;
    try {
      result = await bob.call('delete_note', { id });
    } finally {
      sqlite.prepare('alter table notes_away rename to notes').run([]);
      sqlite.close();
    }
    expect(result.structuredContent).toEqual({
      error: 'authorization_required',
      tool: 'delete_note',
      decision: 'deny',
      detail: 'note_lookup_failed',
    });
    expect(bob.asked).toEqual([]);
    expect((await desk.pending()).total).toBe(0);
    expect(await app.get(NotesStore).get(id)).toMatchObject({ author: 'alice' });
  });
});
