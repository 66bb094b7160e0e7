import { Redis } from 'ioredis';
import { McpModule } from '../../src/index.js';
import { describeWithService, findService, TEST_REDIS_URL } from '../support/services.js';
import {
  adminOptions,
  bootTwoServers,
  partnerOptions,
  type TwoServers,
} from '../servers/two-servers-app.js';
import { deleteKeys } from './cluster-support.js';

/*
 * Two servers in one app, in cluster mode on one Redis (docs/several-servers.md): two instances
 * of the app share each server's sessions, and the servers share nothing. With no keyPrefix, each
 * server's keys fall under `mcp-warden:<name>:`.
 */

const PREFIXES = ['mcp-warden:admin:', 'mcp-warden:partner:'];

describeWithService(
  await findService(TEST_REDIS_URL),
  'several servers in cluster mode',
  (redisUrl) => {
    const instances: TwoServers[] = [];
    /* Keys under the plain prefix before the instances start (a developer's own, say). */
    let before: Set<string>;
    const keys = async () => {
      const redis = new Redis(redisUrl);
      try {
        return await redis.keys('mcp-warden:*');
      } finally {
        await redis.quit();
      }
    };

    const instance = () => {
      const cluster = { redisUrl };
      return bootTwoServers('express', {
        admin: McpModule.forRoot(adminOptions({ cluster })),
        partner: McpModule.forRoot(partnerOptions({ cluster })),
      });
    };

    beforeAll(async () => {
      for (const prefix of PREFIXES) await deleteKeys(redisUrl, prefix);
      before = new Set(await keys());
      instances.push(await instance(), await instance());
    });
    afterAll(async () => {
      for (const one of instances.splice(0)) await one.close();
      for (const prefix of PREFIXES) await deleteKeys(redisUrl, prefix);
    });

    it('an admin session is served by admin on every instance, and by partner on none', async () => {
      const [a, b] = instances;
      const { sessionId } = await a!.admin.initialize();
      const list = (server: TwoServers['admin']) =>
        server.post(server.message('tools/list', {}), { 'mcp-session-id': sessionId });
      expect((await list(b!.admin)).status).toBe(200);
      expect((await list(a!.partner)).status).toBe(404);
      expect((await list(b!.partner)).status).toBe(404);
    });

    it('each server keeps its keys under its own default prefix', async () => {
      await instances[0]!.partner.initialize();
      const made = (await keys()).filter((key) => !before.has(key));
      expect(made.filter((key) => key.startsWith(PREFIXES[0]!)).length).toBeGreaterThan(0);
      expect(made.filter((key) => key.startsWith(PREFIXES[1]!)).length).toBeGreaterThan(0);
      // Nothing either server made sits under the plain prefix a lone server would use.
      expect(made.filter((key) => !PREFIXES.some((prefix) => key.startsWith(prefix)))).toEqual([]);
    });
  },
);
