import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { deleteKeys, uniquePrefix } from '../cluster/cluster-support.js';
import type { HttpTestApp } from '../support/http-app.js';
import { describeWithService, findService, TEST_REDIS_URL } from '../support/services.js';
import { until } from '../support/until.js';
import {
  bootWebhookApp,
  callTransfer,
  notifierOf,
  resultText,
  runs,
  sdkClient,
  submit,
} from './webhook-app.js';
import { WebhookReceiver } from './webhook-receiver.js';

/*
 * Cluster mode: every instance hears each pending ask (the approval store's
 * events span them all); exactly one sends its notice, and its links work on
 * any instance, once.
 */
describeWithService(
  await findService(TEST_REDIS_URL),
  'the approvals webhook in cluster mode',
  (redisUrl) => {
    let prefix: string;
    let receiver: WebhookReceiver;
    let instances: HttpTestApp[];
    let client: Client | undefined;

    beforeEach(async () => {
      runs.length = 0;
      prefix = uniquePrefix();
      receiver = await WebhookReceiver.start();
      const options = { cluster: { redisUrl, keyPrefix: prefix } };
      instances = [
        await bootWebhookApp({ url: receiver.url }, 'express', options),
        await bootWebhookApp({ url: receiver.url }, 'express', options),
      ];
    });
    afterEach(async () => {
      await client?.close();
      await Promise.all(instances.map((instance) => instance.close()));
      await receiver.close();
      await deleteKeys(redisUrl, prefix);
    });

    /** Every instance has heard `asks` pending asks and settled its claim on each. */
    const settled = (asks: number) =>
      instances.every((instance) => {
        const { heard, claimed, skipped } = notifierOf(instance.app).counts;
        return (
          heard === asks && claimed + skipped === asks && notifierOf(instance.app).backlog === 0
        );
      });

    it('one notice per ask across instances', async () => {
      const [first, second] = instances as [HttpTestApp, HttpTestApp];
      client = await sdkClient(first);
      for (let ask = 1; ask <= 3; ask++) {
        const call = callTransfer(client, { ask });
        call.catch(() => undefined);
        await until(() => settled(ask) && receiver.received.length >= ask, `ask ${ask} announced`);
        expect(receiver.received).toHaveLength(ask);
        const notice = receiver.notices()[ask - 1];
        // Decided on the other instance than the one the call waits on; once.
        expect((await submit(second, notice.approveUrl)).status).toBe(200);
        expect((await submit(first, notice.approveUrl)).status).toBe(409);
        expect(resultText(await call)).toBe('transferred 500');
      }
      const claims = instances.map((instance) => notifierOf(instance.app).counts.claimed);
      expect(claims.reduce((sum, n) => sum + n, 0)).toBe(3);
      expect(new Set(receiver.notices().map((notice) => notice.id)).size).toBe(3);
      expect(runs).toHaveLength(3);
    });
  },
);
