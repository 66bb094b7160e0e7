import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { McpClusterBus } from '../../src/mcp/cluster/cluster-bus.js';
import { activeResources } from '../support/active-resources.js';
import { describeWithService, findService, TEST_REDIS_URL } from '../support/services.js';
import { until } from '../support/until.js';
import { uniquePrefix } from './cluster-support.js';

/*
 * A Redis that accepts the instance's connections and then refuses what its start needs: a user
 * whose ACL forbids SUBSCRIBE, on the real server.
 */
describeWithService(
  await findService(TEST_REDIS_URL),
  'a cluster boot that Redis refuses after connecting',
  (redisUrl) => {
    const user = `warden-nosub-${randomBytes(4).toString('hex')}`;
    const password = randomBytes(12).toString('hex');
    let admin: Redis;

    beforeAll(async () => {
      admin = new Redis(redisUrl);
      await admin.call(
        'ACL',
        'SETUSER',
        user,
        'on',
        `>${password}`,
        '~*',
        '&*',
        '+@all',
        '-subscribe',
      );
    });
    afterAll(async () => {
      await admin.call('ACL', 'DELUSER', user);
      await admin.quit();
    });

    it('fails with the refusal, and leaves no connection open', async () => {
      const url = new URL(redisUrl);
      url.username = user;
      url.password = password;
      const before = activeResources('TCPSocketWrap');
      await expect(
        McpClusterBus.connect({
          redisUrl: url.toString(),
          keyPrefix: uniquePrefix(),
          maxMessageBytes: 1_000_000,
        }),
      ).rejects.toThrow(/NOPERM/);
      // Closed, the two connections leave once Redis has answered their QUIT.
      await until(() => activeResources('TCPSocketWrap') === before, 'the connections to close');
    });
  },
);
