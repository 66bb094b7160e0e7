import { deferred } from '../../../../test/support/deferred.js';
import { activeTimers as timers } from '../../../../test/support/active-resources.js';
import { withTimeout } from './with-timeout.js';

describe('withTimeout', () => {
  it('settles like the work when it settles first, and leaves no timer behind', async () => {
    const before = timers();
    await expect(withTimeout(Promise.resolve('done'), 10_000, () => 'late')).resolves.toBe('done');
    await expect(
      withTimeout(Promise.reject(new Error('failed')), 10_000, () => 'late'),
    ).rejects.toThrow('failed');
    expect(timers()).toBe(before);
  });

  it("answers with onTimeout's value once the time is up", async () => {
    const work = deferred<string>();
    const raced = withTimeout(work.promise, 5, () => 'fallback');
    await expect(raced).resolves.toBe('fallback');
    work.resolve('too late');
  });

  it('rejects with what onTimeout throws', async () => {
    const work = deferred<string>();
    await expect(
      withTimeout(work.promise, 5, () => {
        throw new Error('timed out');
      }),
    ).rejects.toThrow('timed out');
  });

  it("keeps the timeout's answer when onTimeout makes the work reject", async () => {
    const work = deferred<string>();
    const raced = withTimeout(work.promise, 5, () => {
      work.reject(new Error('aborted'));
      return 'fallback';
    });
    await expect(raced).resolves.toBe('fallback');
  });

  it("keeps the timeout's error when onTimeout throws after aborting the work", async () => {
    const work = deferred<string>();
    const raced = withTimeout(work.promise, 5, () => {
      work.reject(new Error('aborted'));
      throw new Error('timed out');
    });
    await expect(raced).rejects.toThrow('timed out');
  });
});
