import { createServer, type Server } from 'node:net';
import { McpCheckpointPublishers } from '../../mcp/audit/publishers/mcp-checkpoint-publishers.js';
import { readPublished } from './published-checkpoints.js';

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

describe('checkpoints in Redis, when Redis is not there', () => {
  it('reading them fails with the address it tried, and leaves no timer to hold the process', async () => {
    const port = await deadPort();
    const before = timers();
    await expect(readPublished(`redis://127.0.0.1:${port}`)).rejects.toThrow(
      `cannot read checkpoints from 127.0.0.1:${port}`,
    );
    // A zero-delay timer runs after every zero-delay timer set before it.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(timers()).toBe(before);
  });

  it('a publish rejects (the journal logs it), and the publisher still closes', async () => {
    const port = await deadPort();
    const publisher = McpCheckpointPublishers.redis({ url: `redis://127.0.0.1:${port}` });
    const checkpoint = { instance: 'i', seq: 1, note: 'n' };
    await expect(publisher.publish(checkpoint)).rejects.toThrow();
    // The next checkpoint tries a new connection rather than a dead one.
    await expect(publisher.publish(checkpoint)).rejects.toThrow();
    await publisher.close!();
  });
});
