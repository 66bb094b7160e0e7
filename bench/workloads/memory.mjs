// Server memory per idle session and per open SSE stream, on a fresh server process:
//   baseline: after a warm-up of a few sessions and a burst of calls on them (so lazy
//             initialisation, JIT and the heap's growth under load are not counted);
//   idle:     after N more sessions (initialize + initialized + one tools/call, then silence),
//             opened over 8 keep-alive connections, so sockets do not scale with sessions;
//   streams:  after one standalone SSE stream (GET, Accept: text/event-stream) per session,
//             each on its own connection, all still open.
// Per session = (idle - baseline) / N; per stream = (streams - idle) / N. Each point is read
// after a full GC (heap: V8 heapUsed; RSS: VmRSS from /proc/<pid>/status).
import { setTimeout as sleep } from 'node:timers/promises';
import { callTool, openSession } from '../lib/mcp-http.mjs';
import { drive } from '../lib/measure.mjs';
import { RawHttpConnection } from '../lib/raw-http.mjs';

const POOL = 8;
const WARMUP_SESSIONS = 20;
const KB = 1024;

/** Opens a GET stream on its own connection; resolves once its headers are in. */
async function openStream(url, headers, streams) {
  const connection = await RawHttpConnection.open(url);
  const stream = { connection, ended: false };
  streams.push(stream);
  await new Promise((resolve, reject) => {
    connection
      .request('GET', '', headers, {
        onHead: (res) =>
          res.status === 200 ? resolve() : reject(new Error(`GET stream got HTTP ${res.status}`)),
        onMessage: () => {},
      })
      .then(
        () => (stream.ended = true),
        (error) => {
          stream.ended = true;
          reject(error);
        },
      );
  });
}

export const memoryHttp = {
  id: 'memory-http',
  transport: 'http',
  needsSessions: true,
  tables: [
    {
      title: 'Server memory per idle session, Streamable HTTP',
      metrics: [
        { key: 'sessionRss', label: 'RSS / session (KB)', short: 'RSS', unit: 'KB', floor: 0.5 },
        { key: 'sessionHeap', label: 'heap / session (KB)', short: 'heap', unit: 'KB', floor: 0.5 },
      ],
    },
    {
      title: 'Server memory per open SSE stream (one GET per session), Streamable HTTP',
      metrics: [
        { key: 'streamRss', label: 'RSS / stream (KB)', short: 'RSS', unit: 'KB', floor: 0.5 },
        { key: 'streamHeap', label: 'heap / stream (KB)', short: 'heap', unit: 'KB', floor: 0.5 },
      ],
    },
  ],
  async run(server, sizes) {
    const count = sizes.memorySessions;
    const pool = await Promise.all(
      Array.from({ length: POOL }, () => RawHttpConnection.open(server.url)),
    );
    const streams = [];
    try {
      const sessions = [];
      const openSessions = (n, keep) =>
        drive({
          workers: POOL,
          count: n,
          step: async (worker) => {
            const headers = await openSession(pool[worker]);
            await callTool(pool[worker], headers, server.call, 1);
            keep?.push(headers);
          },
        });
      const warm = [];
      await openSessions(WARMUP_SESSIONS, warm);
      let id = 1;
      await drive({
        workers: POOL,
        ...sizes.warmup,
        step: (worker) => callTool(pool[worker], warm[worker], server.call, ++id),
      });
      const base = await server.memory();
      await openSessions(count, sessions);
      const idle = await server.memory();
      let next = 0;
      await drive({
        workers: 16,
        count,
        step: () => openStream(server.url, sessions[next++], streams),
      });
      await sleep(200); // let the server finish what it does after the headers went out
      const open = await server.memory();
      const ended = streams.filter((stream) => stream.ended).length;
      if (ended) throw new Error(`${ended} SSE streams ended while they should stay open`);
      return {
        sessionRss: (idle.rss - base.rss) / count / KB,
        sessionHeap: (idle.heap - base.heap) / count / KB,
        streamRss: (open.rss - idle.rss) / count / KB,
        streamHeap: (open.heap - idle.heap) / count / KB,
      };
    } finally {
      for (const { connection } of streams) connection.close();
      for (const connection of pool) connection.close();
    }
  },
};
