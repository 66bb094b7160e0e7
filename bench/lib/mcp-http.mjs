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
