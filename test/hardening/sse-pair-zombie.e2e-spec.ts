import { request as httpRequest } from 'node:http';
import { McpServer } from '../../src/index.js';
import {
  HTTP_VARIANTS,
  createHttpApp,
  initializeParams,
  type HttpTestApp,
} from '../support/http-app.js';
import { FaultTools, HTTP_OPTIONS, runs } from '../faults/faults-app.js';

/* A message for a HTTP+SSE pair session that ended while its body arrived. */

describe.each(HTTP_VARIANTS)('HTTP+SSE pair on %s', (adapter) => {
  let t: HttpTestApp;
  afterEach(() => t?.close());

  it('a POST whose stream closes while its body is still arriving is 404: the tool never runs and no connection is left behind', async () => {
    t = await createHttpApp(HTTP_OPTIONS, [FaultTools], adapter);
    runs.length = 0;
    const server = t.app.get(McpServer);
    // The stream on a raw socket, so closing it closes the connection at once.
    const sse = await new Promise<{ data: Promise<string>; close: () => void }>((resolve) => {
      const get = httpRequest(
        {
          host: '127.0.0.1',
          port: t.port,
          path: '/sse',
          agent: false,
          headers: { accept: 'text/event-stream' },
        },
        (res) => {
          let text = '';
          const seen: ((text: string) => void)[] = [];
          res.setEncoding('utf8').on('data', (chunk: string) => {
            text += chunk;
            for (const waiter of seen.splice(0)) waiter(text);
          });
          const next = () => new Promise<string>((done) => seen.push(done));
          resolve({ data: next().then(() => text), close: () => get.destroy() });
          (resolve as unknown as { next?: typeof next }).next = next;
        },
      );
      get.end();
    });
    const first = await sse.data;
    const endpoint = /data: (\/messages\?sessionId=\S+)/.exec(first)![1];
    const init = await t.fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: initializeParams(),
      }),
    });
    expect(init.status).toBe(202);
    await init.arrayBuffer();
    expect(server.stats().connections).toBe(1);

    // The POST starts: headers and half of the body.
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'quick', arguments: {} },
    });
    const answered = new Promise<number>((resolve, reject) => {
      const post = httpRequest(
        {
          host: '127.0.0.1',
          port: t.port,
          path: endpoint,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      post.on('error', reject);
      post.write(body.slice(0, 20));
      // The stream closes; once the server has dropped the session, the body completes.
      const gone = t.nextSocketClose();
      sse.close();
      void gone.then(() => post.end(body.slice(20)));
    });
    expect(await answered).toBe(404);
    expect(runs).toEqual([]);
    expect(server.stats().connections).toBe(0);
  });
});
