import { Agent, createServer, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { endInTurn, endingInTurn } from './end-in-turn.js';
import { sendJson } from './send-json.js';

/** A loopback server that hands each request's response to the test, in arrival order. */
async function holdingServer(): Promise<{
  server: Server;
  port: number;
  next(): Promise<ServerResponse>;
}> {
  const waiting: ((res: ServerResponse) => void)[] = [];
  const arrived: ServerResponse[] = [];
  const server = createServer((_req, res) => {
    const take = waiting.shift();
    if (take) take(res);
    else arrived.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    next: () =>
      arrived.length > 0
        ? Promise.resolve(arrived.shift()!)
        : new Promise((resolve) => waiting.push(resolve)),
  };
}

interface Answer {
  status: number;
  body: string;
  /** The header fields as sent, names lowercased, in order. */
  fields: string[][];
}

/** A GET whose answer (status, body and header fields) resolves; an error rejects. */
function get(port: number, agent: Agent | false = false): { answer: Promise<Answer> } {
  const req = request({ host: '127.0.0.1', port, path: '/', agent });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      const fields: string[][] = [];
      for (let i = 0; i < res.rawHeaders.length; i += 2) {
        fields.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
      }
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body, fields }));
    });
    req.on('error', reject);
  });
  req.end();
  return { answer };
}

const endOfTurn = () => new Promise((resolve) => setImmediate(resolve));

/* Every test answers through its own holding server. */
let held: Awaited<ReturnType<typeof holdingServer>>;
beforeEach(async () => {
  held = await holdingServer();
});
afterEach(async () => {
  held.server.closeAllConnections();
  await new Promise((resolve) => held.server.close(resolve));
});

describe('endInTurn', () => {
  it('ends the responses finished in one turn together, at its end, each with its own body', async () => {
    const first = get(held.port);
    const second = get(held.port);
    const [a, b] = [await held.next(), await held.next()];
    sendJson(a, 200, { n: 1 });
    sendJson(b, 201, { n: 2 });
    // Answered, waiting for the end of the turn: status and headers are set, nothing is written.
    expect([a.headersSent, b.headersSent]).toEqual([true, true]);
    expect([a.writableEnded, b.writableEnded]).toEqual([false, false]);
    expect([endingInTurn(a), endingInTurn(b)]).toEqual([true, true]);
    await endOfTurn();
    expect([a.writableEnded, b.writableEnded]).toEqual([true, true]);
    expect([endingInTurn(a), endingInTurn(b)]).toEqual([false, false]);
    expect(await first.answer).toMatchObject({ status: 200, body: '{"n":1}' });
    expect(await second.answer).toMatchObject({ status: 201, body: '{"n":2}' });
  });

  it('skips a response whose client left before the end of the turn, and ends the others', async () => {
    const gone = get(held.port);
    const stays = get(held.port);
    const [a, b] = [await held.next(), await held.next()];
    gone.answer.catch(() => undefined);
    endInTurn(a, 'never read');
    endInTurn(b, 'read');
    a.destroy();
    await endOfTurn();
    expect(a.writableEnded).toBe(false);
    expect(await stays.answer).toMatchObject({ status: 200, body: 'read' });
  });

  it('leaves as it is a response that something else ended before the end of the turn', async () => {
    const call = get(held.port);
    const res = await held.next();
    const errors: Error[] = [];
    res.on('error', (error) => errors.push(error));
    endInTurn(res, 'queued');
    // Larger than the socket takes at once: the response is ended, not yet finished, at the end
    // of the turn, when a second end would raise an error on it.
    const body = 'x'.repeat(8 * 1024 * 1024);
    res.end(body);
    await endOfTurn();
    const answer = await call.answer;
    expect(answer.body.length).toBe(body.length);
    expect(errors).toEqual([]);
  });

  it('ends a kept-alive connection after its answer when the server began closing in the turn', async () => {
    // An app's shutdown answers the calls in flight, then closes the server in the same turn:
    // the server then waits for every connection, which a kept-alive one would hold for a minute.
    held.server.keepAliveTimeout = 60_000;
    const agent = new Agent({ keepAlive: true });
    try {
      const call = get(held.port, agent);
      const res = await held.next();
      endInTurn(res, 'last answer');
      const closed = new Promise((resolve) => held.server.close(resolve));
      expect(await call.answer).toMatchObject({ status: 200, body: 'last answer' });
      await closed;
      expect(held.server.listening).toBe(false);
    } finally {
      agent.destroy();
    }
  });
});

describe('sendJson', () => {
  it("sends the caller's header fields with its own, and its own type and length win", async () => {
    const call = get(held.port);
    const res = await held.next();
    sendJson(
      res,
      200,
      { text: 'é€😀' },
      {
        'mcp-session-id': 's1',
        'content-type': 'text/plain',
        'Content-Length': '1',
      },
    );
    const { status, body, fields } = await call.answer;
    expect(status).toBe(200);
    expect(JSON.parse(body)).toEqual({ text: 'é€😀' });
    const named = (name: string) => fields.filter(([field]) => field === name);
    expect(named('content-type')).toEqual([['content-type', 'application/json']]);
    expect(named('content-length')).toEqual([['content-length', String(Buffer.byteLength(body))]]);
    expect(named('mcp-session-id')).toEqual([['mcp-session-id', 's1']]);
  });
});
