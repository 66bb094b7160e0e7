import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A close for a test app that does not wait on connections carrying no request. Node's `fetch`
 * opens a connection ahead of need and keeps it for its 4 s keep-alive, and Node's HTTP server
 * counts a connection that has not sent a request yet as busy (it arms the headers timeout on
 * it), so `app.close()` waits those 4 s. Call this once the app listens; the close it returns
 * runs `app.close()` and meanwhile destroys the connections with no request being answered, the
 * others as soon as their last answer ends, and any that open from then on. No answer is cut
 * short.
 */
export function promptClose(app: INestApplication): () => Promise<void> {
  const server = app.getHttpServer() as Server;
  const answering = new Map<Socket, number>();
  let closing = false;
  server.on('connection', (socket: Socket) => {
    if (closing) return void socket.destroy();
    answering.set(socket, 0);
    socket.once('close', () => answering.delete(socket));
  });
  server.on('request', (req, res) => {
    const socket = req.socket;
    answering.set(socket, (answering.get(socket) ?? 0) + 1);
    res.once('close', () => {
      const left = (answering.get(socket) ?? 1) - 1;
      answering.set(socket, left);
      if (closing && left === 0) socket.destroy();
    });
  });
  return () => {
    const closed = app.close();
    closing = true;
    for (const [socket, count] of answering) if (count === 0) socket.destroy();
    return closed;
  };
}
