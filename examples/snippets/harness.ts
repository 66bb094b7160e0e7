import type { INestApplicationContext } from '@nestjs/common';
import { McpWarden } from '../../src/index.js';

/** The few fields of a JSON-RPC message this harness reads. */
interface JsonRpcMessage {
  id?: string | number;
  method?: string;
  result?: unknown;
}

/**
 * A hand-written harness over `McpWarden`, for transports of your own. Two
 * rules: subscribe to the connection before `initialize` (an ask is put to a
 * connection only if it has a live outbound channel and declared
 * `elicitation`), and approve with `{ action: 'accept', content: { approve: true } }`.
 */
export async function callWithApproval(
  app: INestApplicationContext,
  tool: string,
  args: Record<string, unknown>,
): Promise<unknown> {
  const warden = app.get(McpWarden);
  const connId = 'harness-1';
  const origin = { transport: 'unknown' } as const;
  let answer: (message: JsonRpcMessage) => void = () => undefined;
  const parkedResult = new Promise<JsonRpcMessage>((resolve) => (answer = resolve));

  const channel = warden.subscribe(connId).subscribe((sent) => {
    const message = sent as JsonRpcMessage;
    if (message.method === 'elicitation/create') {
      // The approval request: answer it on the same connection.
      const reply = {
        jsonrpc: '2.0',
        id: message.id,
        result: { action: 'accept', content: { approve: true } },
      };
      void warden.dispatch(reply, connId, origin);
    } else if (message.id === 2) {
      answer(message); // the parked call's response
    }
  });
  try {
    await warden.dispatch(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: { elicitation: { form: {} } },
          clientInfo: { name: 'harness', version: '1.0.0' },
        },
      },
      connId,
      origin,
    );
    await warden.dispatch({ jsonrpc: '2.0', method: 'notifications/initialized' }, connId, origin);
    const call = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: tool, arguments: args },
    };
    const outcome = await warden.dispatch(call, connId, origin);
    // 'reply': answered now; 'parked': waiting for the approval, answered on the channel.
    const response =
      outcome.kind === 'reply' ? (outcome.message as JsonRpcMessage) : await parkedResult;
    return response.result;
  } finally {
    channel.unsubscribe(); // drops the connection's state
  }
}
