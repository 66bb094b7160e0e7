import {
  ACCEPT_BOTH,
  initializeParams,
  type HttpTestApp,
  HTTP_VARIANTS,
} from '../support/http-app.js';
import {
  runs,
  MAX_BODY,
  wireApp,
  errorBody,
  expectRefusal,
  expectRawRefusal,
  VISIBLE_ASCII,
} from './wire-app.js';

describe.each(HTTP_VARIANTS)('Streamable HTTP sessions on %s', (adapter) => {
  let t: HttpTestApp;

  beforeEach(async () => {
    runs.length = 0;
    t = await wireApp(adapter);
  });
  afterEach(() => t.close());

  it('initialize mints a session id: visible ASCII, at least 32 characters, new each time', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await t.post(t.message('initialize', initializeParams()));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await response.json()) as any;
      expect(body.result.protocolVersion).toBe('2025-11-25');
      const id = response.headers.get('mcp-session-id');
      expect(id).toMatch(VISIBLE_ASCII);
      expect(id!.length).toBeGreaterThanOrEqual(32);
      ids.push(id!);
    }
    expect(new Set(ids).size).toBe(3);
  });

  it('never adopts a client-chosen session id', async () => {
    const chosen = 'client-chosen-session-id-0123456789abcdef';
    const init = await t.post(t.message('initialize', initializeParams()), {
      'mcp-session-id': chosen,
    });
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).not.toBe(chosen);
    await init.json();
    const ping = t.message('ping');
    await expectRefusal(await t.post(ping, { 'mcp-session-id': chosen }), 404, undefined, ping.id);
  });

  it('a non-initialize POST without a session id is 400 with a JSON-RPC error body', async () => {
    const list = t.message('tools/list');
    await expectRefusal(await t.post(list), 400, undefined, list.id);
  });

  it('an HTTP refusal after the body is read echoes the request id (string and number ids)', async () => {
    for (const id of ['list-tools-0001', 42, 0]) {
      const response = await t.post(t.message('tools/list', undefined, id));
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await response.json()) as { id: unknown };
      expect(body).toEqual(errorBody(undefined, id));
      // The exact id, its type kept: a string is not turned into a number, nor a number into a string.
      expect(typeof body.id).toBe(typeof id);
    }
    // Refused before the body is read (406 Accept), the same request has nothing to echo.
    await expectRefusal(
      await t.post(t.message('tools/list', undefined, 'list-tools-0002'), {
        accept: 'application/json',
      }),
      406,
    );
    // A notification has no id to echo.
    await expectRefusal(await t.post({ jsonrpc: '2.0', method: 'notifications/initialized' }), 400);
    expect(runs).toEqual([]);
  });

  it('an unknown session id is 404 with a JSON-RPC error body', async () => {
    const ping = t.message('ping');
    await expectRefusal(
      await t.post(ping, { 'mcp-session-id': 'no-such-session-0123456789abcdef' }),
      404,
      undefined,
      ping.id,
    );
  });

  it('DELETE ends the session: its open stream ends; later POSTs and GETs are 404', async () => {
    const { sessionId } = await t.initialize();
    const stream = await t.openStandalone(sessionId);
    await stream.at(0);

    const deleted = await t.fetch('/mcp', {
      method: 'DELETE',
      headers: { 'mcp-session-id': sessionId },
    });
    expect(deleted.status).toBe(200);
    await deleted.arrayBuffer();
    expect(await stream.ended).toEqual({});

    const ping = t.message('ping');
    await expectRefusal(
      await t.post(ping, { 'mcp-session-id': sessionId }),
      404,
      undefined,
      ping.id,
    );
    await expectRefusal(await t.get(sessionId), 404);
  });

  it('a method other than GET, POST or DELETE is 405 with Allow and a JSON-RPC error body', async () => {
    const response = await t.fetch('/mcp', { method: 'PUT', body: '{}' });
    expect(response.headers.get('allow')).toBe('GET, POST, DELETE');
    await expectRefusal(response, 405);
  });

  it("a trailing slash follows the adapter's router: served on Express, Fastify's 404", async () => {
    const slashed = await t.fetch('/mcp/', {
      method: 'POST',
      headers: { accept: ACCEPT_BOTH, 'content-type': 'application/json' },
      body: JSON.stringify(t.message('initialize', initializeParams())),
    });
    if (adapter === 'fastify') {
      // Fastify's router matches paths exactly (ignoreTrailingSlash is off by default): /mcp/
      // is no route there, so Fastify answers its own 404 before any MCP code runs.
      expect(slashed.status).toBe(404);
      expect(slashed.headers.get('mcp-session-id')).toBeNull();
      await slashed.arrayBuffer();
    } else {
      // Express routes are not strict: /mcp/ is the MCP route, with every rule of /mcp.
      expect(slashed.status).toBe(200);
      expect(slashed.headers.get('mcp-session-id')).toMatch(VISIBLE_ASCII);
      await slashed.json();
    }
  });

  it('a notification POST is 202 with an empty body', async () => {
    const { sessionId } = await t.initialize();
    const response = await t.post(
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      { 'mcp-session-id': sessionId },
    );
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
  });

  it('a JSON-RPC response POST (answering nothing) is 202 with an empty body', async () => {
    const { sessionId } = await t.initialize();
    const response = await t.post(
      { jsonrpc: '2.0', id: 'nothing-asked-this-0001', result: {} },
      { 'mcp-session-id': sessionId },
    );
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
  });

  it('a body that is not JSON is 400 with parse error -32700', async () => {
    const { sessionId } = await t.initialize();
    await expectRefusal(
      await t.post('{"jsonrpc":"2.0","id":1,"method":', { 'mcp-session-id': sessionId }),
      400,
      -32700,
    );
  });

  it('a body over http.maxBodyBytes is 413 with a JSON-RPC error body (declared or streamed)', async () => {
    const { sessionId } = await t.initialize();
    const big = JSON.stringify(
      t.message('tools/call', { name: 'echo', arguments: { text: 'x'.repeat(MAX_BODY) } }),
    );
    await expectRefusal(await t.post(big, { 'mcp-session-id': sessionId }), 413);

    // Chunked: no Content-Length to refuse up front, so the reader's own bound must hold.
    const streamed = await t.raw(
      'POST',
      '/mcp',
      {
        accept: ACCEPT_BOTH,
        'content-type': 'application/json',
        'transfer-encoding': 'chunked',
        'mcp-session-id': sessionId,
      },
      big,
    );
    expectRawRefusal(streamed, 413);
  });

  it('a POST whose Accept is missing or lacks a required type is 406', async () => {
    const init = JSON.stringify(t.message('initialize', initializeParams()));
    expectRawRefusal(
      await t.raw('POST', '/mcp', { 'content-type': 'application/json' }, init),
      406,
    );
    for (const accept of ['application/json', 'text/event-stream', 'text/html']) {
      await expectRefusal(await t.post(init, { accept }), 406);
    }
  });

  it('a GET whose Accept lacks text/event-stream is 406', async () => {
    const { sessionId } = await t.initialize();
    await expectRefusal(await t.get(sessionId, { accept: 'application/json' }), 406);
  });

  it('a POST with a Content-Type other than application/json is 415', async () => {
    await expectRefusal(
      await t.post(JSON.stringify(t.message('initialize', initializeParams())), {
        'content-type': 'text/plain',
      }),
      415,
    );
  });

  it('an unsupported MCP-Protocol-Version header is 400', async () => {
    const { sessionId } = await t.initialize();
    for (const version of ['2099-01-01', 'bogus']) {
      const ping = t.message('ping');
      await expectRefusal(
        await t.post(ping, {
          'mcp-session-id': sessionId,
          'mcp-protocol-version': version,
        }),
        400,
        undefined,
        ping.id,
      );
    }
  });

  it('2025-03-26, 2025-06-18 and 2025-11-25 headers are accepted on a 2025-11-25 session', async () => {
    const { sessionId } = await t.initialize('2025-11-25');
    for (const version of ['2025-03-26', '2025-06-18', '2025-11-25']) {
      const message = t.message('ping');
      const response = await t.post(message, {
        'mcp-session-id': sessionId,
        'mcp-protocol-version': version,
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ jsonrpc: '2.0', id: message.id, result: {} });
    }
  });

  it('a 2025-03-26 session accepts a JSON array batch and answers with an array', async () => {
    const { sessionId, body } = await t.initialize('2025-03-26');
    expect(body.result.protocolVersion).toBe('2025-03-26');
    const ping = t.message('ping');
    const list = t.message('tools/list');
    const response = await t.post(
      [ping, { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, list],
      { 'mcp-session-id': sessionId },
    );
    expect(response.status).toBe(200);
    const replies = (await response.json()) as { id: number }[];
    expect(Array.isArray(replies)).toBe(true);
    expect(replies).toHaveLength(2);
    const byId = new Map(replies.map((reply) => [reply.id, reply]));
    expect(byId.get(ping.id as number)).toEqual({ jsonrpc: '2.0', id: ping.id, result: {} });
    expect(byId.get(list.id as number)).toMatchObject({
      jsonrpc: '2.0',
      id: list.id,
      result: { tools: expect.any(Array) },
    });
  });

  it('a 2025-11-25 session refuses a batch with 400', async () => {
    const { sessionId } = await t.initialize('2025-11-25');
    await expectRefusal(
      await t.post([t.message('ping'), t.message('ping')], { 'mcp-session-id': sessionId }),
      400,
    );
  });
});
