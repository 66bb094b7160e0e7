import { activeTimers, afterZeroDelayTimers } from '../../../test/support/active-resources.js';
import { freePort } from '../../../test/support/free-port.js';
import { McpCheckpointPublishers } from '../../mcp/audit/publishers/mcp-checkpoint-publishers.js';
import { readPublished } from './published-checkpoints.js';

describe('checkpoints in Redis, when Redis is not there', () => {
  it('reading them fails with the address it tried, and leaves no timer to hold the process', async () => {
    const port = await freePort();
    const before = activeTimers();
    await expect(readPublished(`redis://127.0.0.1:${port}`)).rejects.toThrow(
      `cannot read checkpoints from 127.0.0.1:${port}`,
    );
    await afterZeroDelayTimers();
    expect(activeTimers()).toBe(before);
  });

  it('a publish rejects (the journal logs it), and the publisher still closes', async () => {
    const port = await freePort();
    const publisher = McpCheckpointPublishers.redis({ url: `redis://127.0.0.1:${port}` });
    const checkpoint = { instance: 'i', seq: 1, note: 'n' };
    await expect(publisher.publish(checkpoint)).rejects.toThrow();
    // The next checkpoint tries a new connection rather than a dead one.
    await expect(publisher.publish(checkpoint)).rejects.toThrow();
    await publisher.close!();
  });
});
