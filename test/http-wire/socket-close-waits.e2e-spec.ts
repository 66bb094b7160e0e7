import { once } from 'node:events';
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { type HttpTestApp, HTTP_VARIANTS } from '../support/http-app.js';
import { wireApp } from './wire-app.js';

/*
 * The test app's `nextSocketClose()`, which suites await after aborting a stream: it must wait
 * for that connection, not for an idle keep-alive connection that happens to close first.
 */
describe.each(HTTP_VARIANTS)('nextSocketClose on %s', (adapter) => {
  let t: HttpTestApp;
  beforeEach(async () => {
    t = await wireApp(adapter);
  });
  afterEach(() => t.close());

  it('waits for a connection cut mid-response, not an idle one closing', async () => {
    const { sessionId } = await t.initialize();
    const server = t.app.getHttpServer() as Server;
    const accepted = once(server, 'connection') as Promise<[Socket]>;
    // An idle keep-alive connection: one request answered, then left open.
    const idle = connect(t.port, '127.0.0.1');
    idle.write('GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    await once(idle, 'data');
    const [serverSide] = await accepted;

    const abort = new AbortController();
    const stream = await t.openStandalone(sessionId, abort);
    await stream.at(0);
    let seen = false;
    const gone = t.nextSocketClose().then(() => (seen = true));

    idle.end();
    await once(serverSide, 'close');
    expect(seen).toBe(false);

    abort.abort();
    await gone;
    expect(seen).toBe(true);
  });
});
