import { createServer, type Server } from 'node:net';
import { openRedis } from './redis-connection.js';

/* A port nothing listens on: bound, then closed. */
async function deadPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/* The timers alive in this process, as Node counts its active resources. */
const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('the cluster connections, when Redis is not there', () => {
  it('fail the boot, and leave no client reconnecting or timer holding the process', async () => {
    const port = await deadPort();
    const before = timers();
    await expect(openRedis(`redis://127.0.0.1:${port}`)).rejects.toThrow();
    // A zero-delay timer runs after every zero-delay timer set before it; a client still
    // reconnecting would have a timer of its own (50 ms and up) here.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(timers()).toBe(before);
  });
});
