import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ClosingStreamableTransport } from './closing-transport.js';
import { deferred } from './deferred.js';

/*
 * A server whose standalone stream (the client's GET) ends at once, so the client reconnects,
 * and which holds the reconnection's GET unanswered: the retry is in flight when the test closes
 * the transport. Every POST is accepted (202).
 */
function serverHoldingTheRetry() {
  const retrying = deferred();
  const held: ServerResponse[] = [];
  let gets = 0;
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET') return void res.writeHead(202).end();
    if (++gets === 1) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return void res.end(': open\n\n');
    }
    held.push(res);
    retrying.resolve();
  });
  return {
    retrying: retrying.promise,
    listen: () =>
      new Promise<URL>((resolve) =>
        server.listen(0, '127.0.0.1', () => {
          const { port } = server.address() as AddressInfo;
          resolve(new URL(`http://127.0.0.1:${port}/mcp`));
        }),
      ),
    close: () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/* The first retry at once, every later one a minute away: a timer left behind stays visible. */
const reconnectionOptions = {
  initialReconnectionDelay: 1,
  reconnectionDelayGrowFactor: 60_000,
  maxReconnectionDelay: 60_000,
  maxRetries: 5,
};

/**
 * Opens the transport's standalone stream, lets its first retry reach the server, closes the
 * transport, and waits for that retry's failure: returns the reconnection timer left set then.
 */
async function timerLeftByClose(
  Transport: typeof StreamableHTTPClientTransport,
): Promise<ReturnType<typeof setTimeout> | undefined> {
  const server = serverHoldingTheRetry();
  const transport = new Transport(await server.listen(), { reconnectionOptions });
  const retryFailed = deferred();
  transport.onerror = (error) => {
    if (error.message.startsWith('Failed to reconnect')) retryFailed.resolve();
  };
  try {
    await transport.start();
    // Accepted: the transport then opens its standalone stream, which the server ends.
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await server.retrying;
    await transport.close();
    // The SDK reports the retry's failure, then schedules the next attempt, in one callback.
    await retryFailed.promise;
    return (transport as unknown as { _reconnectionTimeout?: ReturnType<typeof setTimeout> })
      ._reconnectionTimeout;
  } finally {
    await server.close();
  }
}

describe('ClosingStreamableTransport', () => {
  it("the SDK's own transport schedules another attempt when a retry in flight at close() fails", async () => {
    // What the helper is for: if this starts failing, the SDK keeps its closed transports quiet
    // and the helper can go.
    const timer = await timerLeftByClose(StreamableHTTPClientTransport);
    try {
      expect(timer?.hasRef()).toBe(true);
    } finally {
      clearTimeout(timer);
    }
  });

  it('closed, schedules nothing more', async () => {
    expect(await timerLeftByClose(ClosingStreamableTransport)).toBeUndefined();
  });
});
