import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { HttpServiceChild } from '../support/http-service.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import { makeDataDir, removeDataDir } from '../support/stdio-child.js';
import { until } from '../support/until.js';
import { tasksClient } from '../tasks/tasks-app.js';

/*
 * The notes service's long-running tool, export_notes, as the built service runs it: a task for
 * a 2026-07-28 client that declares the tasks extension (created at once, polled with tasks/get,
 * its progress the task's status message, its result the tool's), answered inline for every
 * other client. Bearer tokens from a real oidc-provider: a task is its owner's only.
 */

const MODERN = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = { extensions: { [TASKS]: {} } };
/** The service's audience: tokens name it, whatever port the service listens on. */
const AUDIENCE = 'http://127.0.0.1/mcp';
/** More notes than one page of the export (100), so it reports progress more than once. */
const NOTES = 150;

/** The body field `Mcp-Name` mirrors, by method (as test/modern/modern-app.ts sends it). */
const NAMED: Record<string, string> = {
  'tools/call': 'name',
  'tasks/get': 'taskId',
  'tasks/cancel': 'taskId',
};

let issuer: TestIssuer;
let dataDir: string;
let service: HttpServiceChild;
let url: string;
let alice: string;
let bob: string;
/** The ids of every note made so far: an export holds them all. */
const made: string[] = [];
let ids = 0;

beforeAll(async () => {
  issuer = await startTestIssuer();
  dataDir = await makeDataDir();
  service = new HttpServiceChild(dataDir, {
    DATABASE_URL: '',
    REDIS_URL: '',
    OAUTH_ISSUER: issuer.issuer,
    OAUTH_AUDIENCE: AUDIENCE,
    OAUTH_JWKS_URI: issuer.jwksUri,
    // The tests poll tasks/get as fast as they can, not at the pollIntervalMs a client waits.
    CALLS_PER_SECOND_PER_PRINCIPAL: '100000',
  });
  url = await service.url;
  alice = await issuer.mintToken({ aud: AUDIENCE, sub: 'alice', scope: 'notes:write' });
  bob = await issuer.mintToken({ aud: AUDIENCE, sub: 'bob', scope: 'notes:write' });
});
afterAll(async () => {
  await service?.dispose();
  await issuer?.close();
  await removeDataDir(dataDir);
});

/**
 * One 2026-07-28 request as a conforming client sends it: the envelope in `_meta` (here
 * declaring the tasks extension, or not), the routing headers, the caller's token.
 */
async function modern(
  token: string,
  method: string,
  params: Record<string, unknown>,
  capabilities: object = WITH_TASKS,
): Promise<any> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${token}`,
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
  };
  const named = params[NAMED[method]];
  if (typeof named === 'string') headers['mcp-name'] = named;
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: ++ids, method, params: { ...params, _meta } }),
  });
  // Parsed here, in the tests' realm (fetch's own json() builds the host's objects).
  return JSON.parse(await response.text());
}

/** Polls tasks/get, one request in flight at a time, until `holds`; every status message seen. */
async function taskWhen(token: string, taskId: string, holds: (task: any) => boolean) {
  const messages = new Set<string>();
  let task: any;
  let asking = false;
  await until(() => {
    if (task && holds(task)) return true;
    if (!asking) {
      asking = true;
      void modern(token, 'tasks/get', { taskId }).then((answer) => {
        task = answer.result ?? answer.error;
        if (typeof task.statusMessage === 'string') messages.add(task.statusMessage);
        asking = false;
      });
    }
    return false;
  }, `task ${taskId} reaching the awaited state`);
  return { task, messages };
}

/** The export's file, as notes, and its bytes' SHA-256. */
async function exportedFile(file: string) {
  const bytes = await readFile(file);
  const notes = bytes
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { id: string; title: string; author?: string });
  return { notes, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
}

/** What a finished export answers, checked against its file and the notes made so far. */
async function expectWholeExport(exported: any): Promise<void> {
  expect(exported).toMatchObject({ count: made.length, sha256: expect.any(String) });
  expect(exported.file.startsWith(join(dataDir, 'exports'))).toBe(true);
  const file = await exportedFile(exported.file);
  expect(file.notes.map((note) => note.id).sort()).toEqual([...made].sort());
  expect(file.sha256).toBe(exported.sha256);
  expect(file.size).toBe(exported.bytes);
}

describe('the notes service: export_notes, a long-running tool', () => {
  beforeAll(async () => {
    const notes = await Promise.all(
      Array.from({ length: NOTES }, (_, index) =>
        modern(alice, 'tools/call', {
          name: 'create_note',
          arguments: { title: `note ${index}`, body: `body ${index}`, tags: ['export'] },
        }),
      ),
    );
    for (const note of notes) made.push(note.result.structuredContent.id);
  });

  it('a 2026-07-28 client with the tasks extension gets a task, polls it, and reads the export', async () => {
    // Create the task: the call answers at once, and the export runs on.
    const created = await modern(alice, 'tools/call', { name: 'export_notes', arguments: {} });
    expect(created.result).toMatchObject({
      resultType: 'task',
      taskId: expect.any(String),
      status: 'working',
      ttlMs: expect.any(Number),
      pollIntervalMs: expect.any(Number),
    });
    const { taskId } = created.result;
    // Poll tasks/get until it is no longer working; meanwhile its statusMessage is the progress.
    const { task, messages } = await taskWhen(alice, taskId, (it) => it.status !== 'working');
    // The result is the tool's whole CallToolResult, as an inline call would have answered it.
    expect(task).toMatchObject({ taskId, status: 'completed', result: { resultType: 'complete' } });
    const exported = task.result.structuredContent;
    expect(JSON.parse(task.result.content[0].text)).toEqual(exported);
    await expectWholeExport(exported);
    for (const message of messages) expect(message).toMatch(/^exported \(\d+\/150\)$/);

    // The task is alice's: to bob it does not exist, and he cannot cancel it.
    const foreign = await modern(bob, 'tasks/get', { taskId });
    expect(foreign.error).toMatchObject({ code: -32602, message: 'Unknown or expired task' });
    expect((await modern(bob, 'tasks/cancel', { taskId })).error.code).toBe(-32602);
  });

  it('the official tasks client (ext-tasks on the SDK v2 client) settles it the same way', async () => {
    const { client, session } = await tasksClient(url, { token: alice });
    try {
      const execution = await session.callTool('export_notes', {});
      expect(execution.kind).toBe('task');
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe('completed');
      const result = (outcome as { result: { structuredContent: object } }).result;
      await expectWholeExport(result.structuredContent);
    } finally {
      await session.close();
      await client.close();
    }
  });

  it('without the extension a 2026-07-28 call answers inline with the export', async () => {
    const answer = await modern(alice, 'tools/call', { name: 'export_notes', arguments: {} }, {});
    expect(answer.result).toMatchObject({ resultType: 'complete' });
    expect(answer.result).not.toHaveProperty('taskId');
    await expectWholeExport(answer.result.structuredContent);
  });

  it('a handshake-era client (the official SDK 1.x) gets the export inline, with progress per page', async () => {
    const client = new Client({ name: 'legacy-export', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${alice}` } },
      }),
    );
    try {
      const progress: string[] = [];
      const result = await client.callTool(
        { name: 'export_notes', arguments: {} },
        CallToolResultSchema,
        {
          onprogress: ({ progress: done, total, message }) =>
            progress.push(`${message} (${done}/${total})`),
        },
      );
      expect(result.isError).toBeFalsy();
      await expectWholeExport(result.structuredContent);
      expect(progress).toEqual(['exported (0/150)', 'exported (100/150)', 'exported (150/150)']);
    } finally {
      await client.close();
    }
  });
});
