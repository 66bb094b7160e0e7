import { HttpServiceChild } from '../support/http-service.js';
import { SseReader } from '../support/http-sse.js';
import { StdioChild, makeDataDir, removeDataDir } from '../support/stdio-child.js';

/*
 * A call still parked when the process is told to stop gets its answer (the
 * "connection closed" deny) before the process exits: the client is never
 * left waiting on a process that is gone.
 */

const CLOSED = {
  error: 'authorization_required',
  tool: 'delete_note',
  decision: 'ask',
  detail: 'connection closed',
};

describe('SIGTERM with a call awaiting approval (the stdio service)', () => {
  let dir: string | undefined;
  let child: StdioChild | undefined;
  afterEach(async () => {
    await child?.dispose();
    await removeDataDir(dir);
  });

  it('the parked call is answered with the connection-closed deny, then the process exits 0', async () => {
    dir = await makeDataDir();
    child = new StdioChild(dir);
    await child.initialize({ elicitation: {} });
    const created = await child.request('tools/call', {
      name: 'create_note',
      arguments: { title: 't', body: 'b' },
    });
    const id = JSON.parse(created.result.content[0].text).id as string;
    const asked = child.waitFor((m) => m.method === 'elicitation/create');
    const answer = child.request('tools/call', { name: 'delete_note', arguments: { id } });
    await asked;
    child.process.kill('SIGTERM');
    const { result } = await answer;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual(CLOSED);
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });
});

describe('SIGTERM with a call awaiting approval (the HTTP service)', () => {
  let dir: string | undefined;
  let child: HttpServiceChild | undefined;
  afterEach(async () => {
    await child?.dispose();
    await removeDataDir(dir);
  });

  const post = (url: string, body: object, session?: string) =>
    fetch(url, {
      method: 'POST',
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
      },
      body: JSON.stringify(body),
    });

  it("the parked call's POST stream carries the connection-closed deny, then the process exits 0", async () => {
    dir = await makeDataDir();
    child = new HttpServiceChild(dir);
    const url = await child.url;
    const init = await post(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: {} },
        clientInfo: { name: 't', version: '1' },
      },
    });
    const session = init.headers.get('mcp-session-id')!;
    await init.arrayBuffer();
    const ack = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    expect(ack.status).toBe(202);
    const stream = new SseReader(
      await post(
        url,
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'delete_note', arguments: { id: 'x' } },
        },
        session,
      ),
    );
    await stream.waitForMessage((m) => m.method === 'elicitation/create');
    child.process.kill('SIGTERM');
    const answer = await stream.waitForMessage((m) => m.id === 2);
    expect(answer.result.isError).toBe(true);
    expect(answer.result.structuredContent).toEqual(CLOSED);
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });
});
