import { afterEach, describe, expect, it } from '@jest/globals';
import { Client } from './client.mjs';

/*
 * An approved guarded call that timed out is wrong unless the approval may have reached the
 * server after its deadline (client.mjs, approvalMayBeLate).
 */
describe('soak client: a timed-out approval', () => {
  const saved = Client.elicitationTimeoutMs;
  afterEach(() => {
    Client.elicitationTimeoutMs = saved;
  });

  /**
   * @param {number} sentAt
   * @param {number | undefined} ackedAt
   */
  const client = (sentAt, ackedAt) => {
    Client.elicitationTimeoutMs = 1_000;
    const c = new Client('http', 'tok', Infinity);
    c.approvals.set('guarded-1', ackedAt === undefined ? { sentAt } : { sentAt, ackedAt });
    return c;
  };

  it('acknowledged within the timeout of the call: in time, so a timeout is wrong', () => {
    expect(client(100, 1_100).approvalMayBeLate('guarded-1')).toBe(false);
    expect(client(100, 400).approvalMayBeLate('guarded-1')).toBe(false);
  });

  it('acknowledged after it, or not yet: it may have arrived late', () => {
    expect(client(100, 1_101).approvalMayBeLate('guarded-1')).toBe(true);
    expect(client(100, undefined).approvalMayBeLate('guarded-1')).toBe(true);
  });

  it('the acknowledgement of an elicitation answer is matched to its call by request id', () => {
    const c = client(performance.now(), undefined);
    c.decisions.set('guarded-1', 'approve');
    const answer = c.answerTo({
      jsonrpc: '2.0',
      id: 7,
      method: 'elicitation/create',
      params: { message: 'Run guarded for tok/guarded-1?' },
    });
    expect(answer).toMatchObject({ id: 7, result: { action: 'accept' } });
    expect(c.approvalMayBeLate('guarded-1')).toBe(true);
    c.acknowledge(/** @type {Record<string, any>} */ (answer));
    expect(c.approvalMayBeLate('guarded-1')).toBe(false);
  });
});
