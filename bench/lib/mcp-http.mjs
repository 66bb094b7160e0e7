// Streamable HTTP session helpers on a RawHttpConnection.
import { INITIALIZED, PROTOCOL_VERSION, describe, initializeLine } from './mcp.mjs';
import { messageOf } from './raw-http.mjs';

/** initialize + notifications/initialized; resolves with the headers the session's requests carry. */
export async function openSession(connection, capabilities) {
  const init = await connection.post(initializeLine(0, capabilities));
  const reply = init.status === 200 ? messageOf(init) : null;
  if (!reply?.result?.protocolVersion) {
    throw new Error(`initialize failed: HTTP ${init.status} ${describe(reply ?? init.body)}`);
  }
  const headers = { 'mcp-protocol-version': PROTOCOL_VERSION };
  if (init.headers['mcp-session-id']) headers['mcp-session-id'] = init.headers['mcp-session-id'];
  const ack = await connection.post(INITIALIZED, headers);
  if (ack.status !== 202) throw new Error(`notifications/initialized got HTTP ${ack.status}`);
  return headers;
}

/** One tools/call of `call` (see mcp.mjs); throws unless it is answered successfully. */
export async function callTool(connection, headers, call, id) {
  const response = await connection.post(call.line(id), headers);
  const message = response.status === 200 ? messageOf(response) : null;
  if (!call.ok(message)) {
    throw new Error(
      `${call.name} failed: HTTP ${response.status} ${describe(message ?? response.body)}`,
    );
  }
}

/**
 * One task of `task` (mcp.mjs `taskCall`): its tools/call, then tasks/get on the same connection
 * until the task has finished with the call's answer; resolves with how many polls that took.
 * Throws unless the call became a task and every answer is that task. A task still working is
 * asked about again at once, not after its `pollIntervalMs`: the bench measures the server's cost
 * of a task, not a timer (a 0 ms tool has finished before its first poll arrives).
 */
export async function runTask(connection, task, id) {
  const response = await connection.post(task.line(id), task.headers);
  const message = response.status === 200 ? messageOf(response) : null;
  const taskId = task.created(message);
  if (!taskId) {
    throw new Error(
      `${task.name} did not become a task: HTTP ${response.status} ${describe(message ?? response.body)}`,
    );
  }
  const headers = task.getHeaders(taskId);
  for (let polls = 1; ; polls++) {
    const got = await connection.post(task.getLine(id, taskId), headers);
    if (got.status !== 200) throw new Error(`tasks/get got HTTP ${got.status} ${got.body}`);
    if (task.done(messageOf(got), taskId)) return polls;
  }
}
