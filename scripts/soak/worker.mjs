// @ts-check
import { randomOperation } from './client.mjs';
import { setTimeout as sleep } from 'node:timers/promises';
import { figures, problem } from './figures.mjs';

/**
 * Runs sessions one after another until the deadline: each opens, operates, closes.
 * @param {() => import('./http-client.mjs').HttpClient | import('./stdio-client.mjs').StdioClient} makeClient
 * @param {number} deadline epoch ms
 * @param {Map<string, string>} seenConnIds
 * @param {() => number} opsPerSession
 */
export async function worker(makeClient, deadline, seenConnIds, opsPerSession) {
  while (Date.now() < deadline) {
    const client = makeClient();
    try {
      await client.open();
    } catch (error) {
      // A session the server would not open is a lost request, and the run goes on.
      figures.calls++;
      problem('lost', `open: ${error instanceof Error ? error.message : String(error)}`);
      // A session the server did open (its initialize answered, a later step refused) is ended.
      if ('sessionId' in client && client.sessionId) await client.close().catch(() => undefined);
      await sleep(100);
      continue;
    }
    const ops = opsPerSession();
    for (let done = 0; done < ops && Date.now() < deadline;) {
      // One to three operations in flight at once on this session.
      const batch = Math.min(ops - done, 1 + Math.floor(Math.random() * 3));
      await Promise.all(
        Array.from({ length: batch }, () => client.operate(randomOperation(), seenConnIds)),
      );
      done += batch;
    }
    await client.close();
    if (figures.calls >= client.maxCalls) break;
  }
}
