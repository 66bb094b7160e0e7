import { freePort } from '../auth/auth-app.js';
import { createHttpApp, type HttpTestApp } from '../support/http-app.js';
import { SseReader } from '../support/http-sse.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import { modernMessage, postModern } from '../modern/modern-app.js';
import { resetSeen, seen, TASK_OPTIONS, TASK_PROVIDERS, WITH_TASKS } from './tasks-app.js';

/*
 * A task is its creator's (issuer and subject), with two real tokens from a real OpenID
 * Provider: another principal gets exactly the unknown-id answer, hears nothing of it, and
 * one caller filling its share of tasks leaves the other's untouched.
 */

let issuer: TestIssuer;
let t: HttpTestApp;
let alice: string;
let bob: string;
let carol: string;

/** A modern request with a bearer token; `taskId` also goes in `Mcp-Name`. */
async function as(
  token: string,
  id: number | string,
  method: string,
  params: Record<string, unknown> = {},
): Promise<any> {
  const named = typeof params.taskId === 'string' ? { 'mcp-name': params.taskId } : {};
  const response = await postModern(t, modernMessage(id, method, params, WITH_TASKS), {
    authorization: `Bearer ${token}`,
    ...named,
  });
  return response.json();
}

beforeAll(async () => {
  issuer = await startTestIssuer();
  const port = await freePort();
  const audience = `http://127.0.0.1:${port}/mcp`;
  t = await createHttpApp(
    {
      ...TASK_OPTIONS,
      http: { auth: { issuer: issuer.issuer, audience, jwksUri: issuer.jwksUri } },
      limits: { maxTasksPerPrincipal: 3 },
    },
    TASK_PROVIDERS,
    'express',
    port,
  );
  alice = await issuer.mintToken({ aud: audience, sub: 'alice', scope: 'tasks' });
  bob = await issuer.mintToken({ aud: audience, sub: 'bob', scope: 'tasks' });
  carol = await issuer.mintToken({ aud: audience, sub: 'carol', scope: 'tasks' });
});
afterAll(async () => {
  seen.gate.resolve();
  await t.close();
  await issuer.close();
});
beforeEach(() => resetSeen());

it('another principal gets exactly the unknown-id answer for every tasks/* method', async () => {
  const created = await as(alice, 1, 'tools/call', {
    name: 'build_report',
    arguments: { title: 'mine' },
  });
  const taskId = created.result.taskId;
  expect((await as(alice, 2, 'tasks/get', { taskId })).result.status).toBe('working');
  for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
    const theirs = await as(bob, 3, method, { taskId, inputResponses: {} });
    const unknown = await as(bob, 3, method, { taskId: 'A'.repeat(22), inputResponses: {} });
    expect(theirs).toEqual(unknown);
    expect(theirs.error).toEqual({ code: -32602, message: 'Unknown or expired task' });
  }
  // Bob's cancel did nothing: Alice's task still runs, and ends as hers.
  expect(seen.aborted).toBe(0);
  seen.gate.resolve();
  let task: any;
  do task = (await as(alice, 4, 'tasks/get', { taskId })).result;
  while (task.status === 'working');
  expect(task).toMatchObject({ status: 'completed' });
});

it("a listen stream accepts only the caller's own task ids", async () => {
  const created = await as(alice, 5, 'tools/call', {
    name: 'build_report',
    arguments: { title: 'heard' },
  });
  const taskId = created.result.taskId;
  const abort = new AbortController();
  const response = await postModern(
    t,
    modernMessage(
      'bob-listen',
      'subscriptions/listen',
      { notifications: { taskIds: [taskId] } },
      WITH_TASKS,
    ),
    { authorization: `Bearer ${bob}` },
    abort,
  );
  const reader = new SseReader(response);
  const ack = await reader.waitForMessage(
    (message) => message.method === 'notifications/subscriptions/acknowledged',
  );
  expect(ack.params.notifications).toEqual({ taskIds: [] });
  const closed = t.nextSocketClose();
  abort.abort();
  await closed;
  seen.gate.resolve();
});

it('a flood of tasks from one caller is refused past its share (limits.maxTasksPerPrincipal); another caller is not', async () => {
  const floods = await Promise.all(
    Array.from({ length: 6 }, (_, index) =>
      as(carol, `flood-${index}`, 'tools/call', {
        name: 'build_report',
        arguments: { title: `flood ${index}` },
      }),
    ),
  );
  const refused = floods.filter((body) => body.error?.code === -31429);
  expect(floods.filter((body) => body.result?.resultType === 'task')).toHaveLength(3);
  expect(refused).toHaveLength(3);
  expect(refused[0].error.message).toBe('Too many tasks');
  const bobs = await as(bob, 'bob-1', 'tools/call', {
    name: 'build_report',
    arguments: { title: 'bob' },
  });
  expect(bobs.result).toMatchObject({ resultType: 'task', status: 'working' });
  seen.gate.resolve();
});
