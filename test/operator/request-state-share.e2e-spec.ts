import type { McpModuleOptions } from '../../src/index.js';
import { deleteKeys, uniquePrefix } from '../cluster/cluster-support.js';
import type { HttpTestApp } from '../support/http-app.js';
import { describeWithService, findService, TEST_REDIS_URL } from '../support/services.js';
import { until } from '../support/until.js';
import { authenticateByHeader, modernTransfer } from './modern-callers.js';
import { bootWebhookApp, submit } from './webhook-app.js';
import { WebhookReceiver } from './webhook-receiver.js';

/*
 * The single-use-token store's shares (issue 24, finding 3), over the real
 * HTTP transport in the modern era, in memory and in Redis: each retry that
 * presents a `requestState` keeps a nonce until the state expires. One
 * caller retrying an unanswered ask fills its own share, not the store every
 * caller, the webhook's notices and its links use; a full store answers
 * -31429 with words, never a 500.
 */

/** Every caller's share, and all callers' states together: two shares. */
const LIMITS = { maxRequestStates: 4, maxRequestStatesPerPrincipal: 2 };

function suite(extra: () => Partial<McpModuleOptions>) {
  let receiver: WebhookReceiver;
  let app: HttpTestApp;

  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
    app = await bootWebhookApp({ url: receiver.url }, 'express', {
      http: { authenticate: authenticateByHeader },
      limits: LIMITS,
      ...extra(),
    });
  });
  afterEach(async () => {
    await app.close();
    await receiver.close();
  });

  /** One modern `transfer` call, or its retry; whatever the store says, never a 500. */
  const transfer = (caller: string, requestState?: string) =>
    modernTransfer(app, caller, {}, requestState);

  /** The caller's ask notice, once the webhook receiver has it. */
  async function noticeOf(caller: string): Promise<any> {
    const find = () => receiver.notices().find((notice) => notice.caller.subject === caller);
    await until(() => find() !== undefined, `the notice of ${caller}'s ask`);
    return find();
  }

  /** Retries an unanswered ask until refused: how many retries were accepted, and the refusal. */
  async function retryUntilRefused(caller: string): Promise<{ accepted: number; error: any }> {
    let state = (await transfer(caller)).result.requestState;
    for (let accepted = 0; accepted < 10; accepted++) {
      const answer = await transfer(caller, state);
      if (answer.error) return { accepted, error: answer.error };
      expect(answer.result.resultType).toBe('input_required');
      state = answer.result.requestState;
    }
    throw new Error(`${caller} was never refused`);
  }

  it("store share per caller: past her share Mallory gets -31429; Alice's approved retry runs, her notice and link work", async () => {
    expect(await retryUntilRefused('mallory')).toEqual({
      accepted: LIMITS.maxRequestStatesPerPrincipal,
      error: expect.objectContaining({
        code: -31429,
        message: expect.stringContaining('by this caller'),
      }),
    });
    const first = await transfer('alice');
    expect(first.result.resultType).toBe('input_required');
    const notice = await noticeOf('alice');
    const approved = await submit(app, notice.approveUrl);
    expect(approved.status).toBe(200);
    expect(await approved.text()).toContain('Approved');
    const retry = await transfer('alice', first.result.requestState);
    expect(retry.result.content).toEqual([{ type: 'text', text: 'transferred 500' }]);
  });

  it("every caller's states in use: a retry gets -31429 in words, and notices and links still work", async () => {
    await retryUntilRefused('mallory');
    await retryUntilRefused('eve');
    const first = await transfer('carol');
    // The webhook's entries are not callers': the notice is sent and its link decides.
    const notice = await noticeOf('carol');
    const approved = await submit(app, notice.approveUrl);
    expect(approved.status).toBe(200);
    const retry = await transfer('carol', first.result.requestState);
    expect(retry.error).toEqual(
      expect.objectContaining({ code: -31429, message: expect.stringContaining('on this server') }),
    );
    // The link was used once; used again it says so (the store still answers, no 500).
    expect((await submit(app, notice.approveUrl)).status).toBe(409);
  });
}

describe('request-state store shares, in memory', () => {
  suite(() => ({}));
});

describeWithService(
  await findService(TEST_REDIS_URL),
  'request-state store shares, in Redis',
  (redisUrl) => {
    let prefix = uniquePrefix();
    beforeEach(() => {
      prefix = uniquePrefix();
    });
    afterEach(() => deleteKeys(redisUrl, prefix));
    suite(() => ({ cluster: { redisUrl, keyPrefix: prefix } }));
  },
);
