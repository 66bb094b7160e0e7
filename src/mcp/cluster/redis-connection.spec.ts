import { activeTimers, afterZeroDelayTimers } from '../../../test/support/active-resources.js';
import { freePort } from '../../../test/support/free-port.js';
import { openRedis } from './redis-connection.js';

describe('the cluster connections, when Redis is not there', () => {
  it('fail the boot, and leave no client reconnecting or timer holding the process', async () => {
    const port = await freePort();
    const before = activeTimers();
    await expect(openRedis(`redis://127.0.0.1:${port}`)).rejects.toThrow();
    // A client still reconnecting would have a timer of its own here (50 ms and up).
    await afterZeroDelayTimers();
    expect(activeTimers()).toBe(before);
  });
});
