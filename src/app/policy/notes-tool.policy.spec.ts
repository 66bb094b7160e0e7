import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuthorizerContext, McpPrincipal } from '../../index.js';
import { NotesStore } from '../notes/notes.store.js';
import { NOTE_LOOKUP_FAILED, NOTES_ADMIN_SCOPE, notesToolPolicy } from './notes-tool.policy.js';

/* The tool policy on a real (SQLite) notes store: whose note a delete is about decides who approves. */

let dataDir: string;
let store: NotesStore;

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'notes-policy-'));
  store = new NotesStore({ kind: 'sqlite', dataDir, announce: false });
  await store.onModuleInit();
});
afterEach(async () => {
  await store.onModuleDestroy();
  rmSync(dataDir, { recursive: true, force: true });
});

const as = (subject?: string, scopes: string[] = ['notes:write']): AuthorizerContext => {
  const principal: McpPrincipal | undefined =
    subject === undefined ? undefined : { subject, scopes };
  return { connId: 'c1', transport: 'stdio', purpose: 'call', ...(principal ? { principal } : {}) };
};

describe('notesToolPolicy', () => {
  it("asks an operator for someone else's note, the caller for its own", async () => {
    const policy = notesToolPolicy(store);
    const { id } = await store.create('t', 'b', [], 'alice');
    expect(await policy('delete_note', { id }, as('bob'))).toEqual({
      kind: 'ask',
      prompt: `Delete note ${id}, written by alice? This cannot be undone.`,
      approver: 'operator',
    });
    expect(await policy('delete_note', { id }, as('alice'))).toEqual({
      kind: 'ask',
      prompt: `Delete note ${id}? This cannot be undone.`,
    });
  });

  it('an anonymous caller is nobody: a note with an author asks an operator, one without asks the caller', async () => {
    const policy = notesToolPolicy(store);
    const authored = await store.create('t', 'b', [], 'alice');
    const anonymous = await store.create('t', 'b', []);
    expect(await policy('delete_note', { id: authored.id }, as())).toMatchObject({
      approver: 'operator',
    });
    expect(await policy('delete_note', { id: anonymous.id }, as())).toEqual({
      kind: 'ask',
      prompt: `Delete note ${anonymous.id}? This cannot be undone.`,
    });
  });

  it('notes:admin allows without reading the store; other tools keep their rules', () => {
    const policy = notesToolPolicy(store);
    // Synchronous: no lookup happens for an admin, nor for the allowed tools.
    expect(policy('delete_note', { id: 'x' }, as('root', [NOTES_ADMIN_SCOPE]))).toEqual({
      kind: 'allow',
    });
    expect(policy('create_note', {}, as('bob'))).toEqual({ kind: 'allow' });
    expect(policy('drop_table', {}, as('bob'))).toEqual({
      kind: 'deny',
      reason: 'tool_not_in_policy',
    });
  });

  it.each([[{}], [{ id: 42 }], [{ id: '' }], [{ id: ['a'] }], [{ id: null }]])(
    'untrusted arguments %j ask the caller without a lookup, and never throw',
    (args) => {
      expect(notesToolPolicy(store)('delete_note', args, as('bob'))).toEqual({
        kind: 'ask',
        prompt: 'Delete note (unspecified)? This cannot be undone.',
      });
    },
  );

  it('an unknown id asks the caller (the tool then says there is no such note)', async () => {
    expect(await notesToolPolicy(store)('delete_note', { id: 'nope' }, as('bob'))).toEqual({
      kind: 'ask',
      prompt: 'Delete note nope? This cannot be undone.',
    });
  });

  it('a store that fails denies (fail closed)', async () => {
    const { id } = await store.create('t', 'b', [], 'alice');
    await store.onModuleDestroy(); // the store is closed: every read rejects
    expect(await notesToolPolicy(store)('delete_note', { id }, as('bob'))).toEqual({
      kind: 'deny',
      reason: NOTE_LOOKUP_FAILED,
    });
    // Its own note too: who wrote it cannot be known.
    expect(await notesToolPolicy(store)('delete_note', { id }, as('alice'))).toEqual({
      kind: 'deny',
      reason: NOTE_LOOKUP_FAILED,
    });
  });
});
