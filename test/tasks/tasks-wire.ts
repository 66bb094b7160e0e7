import type { HttpTestApp } from '../support/http-app.js';
import { until } from '../support/until.js';
import { modernMessage, postModern } from '../modern/modern-app.js';
import { WITH_TASKS } from './tasks-app.js';

/* Raw JSON-RPC for the tasks suites, where the rule under test is the wire itself. */

/** A raw modern request; `taskId` also goes in `Mcp-Name`, as a conforming client sends it. */
export async function raw(
  t: HttpTestApp,
  id: number | string,
  method: string,
  params: Record<string, unknown> = {},
  capabilities: object = WITH_TASKS,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const named = typeof params.taskId === 'string' ? { 'mcp-name': params.taskId } : {};
  const response = await postModern(t, modernMessage(id, method, params, capabilities), {
    ...named,
    ...headers,
  });
  return { status: response.status, body: await response.json() };
}

/** Polls `tasks/get` (one request per event-loop turn at most) until `holds` is true. */
export async function taskWhen(
  t: HttpTestApp,
  taskId: string,
  holds: (task: any) => boolean,
): Promise<any> {
  let task: any;
  let asking = false;
  await until(() => {
    if (task && holds(task)) return true;
    if (!asking) {
      asking = true;
      void raw(t, `get-${taskId}`, 'tasks/get', { taskId }).then(({ body }) => {
        task = body.result ?? body.error;
        asking = false;
      });
    }
    return false;
  }, `task ${taskId} reaching the awaited state`);
  return task;
}
