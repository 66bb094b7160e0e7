// @ts-check
// The latency probe: one honest client in a worker thread of its own, one call at a time on one
// keep-alive connection from 127.0.0.1, until the deadline. The soak's honest workers share one
// event loop (dozens of fetch clients and the stdio pipes), so their round trips carry their own
// queueing; the probe's carry the server's answer time and the machine's, which is the latency an
// honest client sees. Every answer is checked like the workers' (an echo of its own token and
// text, a ping's empty result); the figures are posted back at the end.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { closeSession, messagesOf, openSession, request } from './hostile-http.mjs';

/** @typedef {{ url: string, deadline: number, pauseMs: number }} ProbeOptions */

const ADDRESS = '127.0.0.1';

async function main() {
  /** @type {ProbeOptions} */
  const options = workerData;
  const url = new URL(options.url);
  const token = randomBytes(6).toString('hex');
  /** @type {number[]} */
  const samples = [];
  const figures = { calls: 0, answered: 0, lost: 0, wrong: 0, samples };
  /** @type {string[]} */
  const problems = [];
  const opened = await openSession(url, ADDRESS);
  if (!opened.sessionId) throw new Error(`probe session: HTTP ${opened.status}`);
  const headers = { 'mcp-session-id': opened.sessionId };
  for (let id = 1; Date.now() < options.deadline; id++) {
    const echo = id % 2 === 1;
    const text = `probe-${id}`;
    const message = echo
      ? {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'echo', arguments: { token, text } },
        }
      : { jsonrpc: '2.0', id, method: 'ping' };
    figures.calls++;
    const sent = performance.now();
    const answer = await request(url, {
      localAddress: ADDRESS,
      headers,
      body: JSON.stringify(message),
      timeoutMs: 15_000,
    });
    const took = performance.now() - sent;
    const reply = messagesOf(answer).find((m) => m.id === id && m.method === undefined);
    if (!reply) {
      figures.lost++;
      if (problems.length < 10)
        problems.push(
          `probe #${id}: HTTP ${answer.status} ${answer.error ?? answer.body.slice(0, 200)}`,
        );
    } else {
      figures.answered++;
      const good = echo
        ? reply.result?.structuredContent?.token === token &&
          reply.result.structuredContent.text === text
        : reply.result !== undefined && Object.keys(reply.result).length === 0;
      if (good) figures.samples.push(took);
      else {
        figures.wrong++;
        if (problems.length < 10)
          problems.push(`probe #${id}: ${JSON.stringify(reply).slice(0, 200)}`);
      }
    }
    await sleep(options.pauseMs);
  }
  const closed = await closeSession(url, ADDRESS, opened.sessionId);
  if (closed !== 200) problems.push(`probe DELETE: HTTP ${closed}`);
  parentPort?.postMessage({ type: 'report', report: { ...figures, problems } });
}

main().catch((error) => {
  parentPort?.postMessage({
    type: 'failed',
    error: error instanceof Error ? error.stack : String(error),
  });
});
