// The elicitation round trip over Streamable HTTP: call `guarded_echo` (Warden: an `ask` policy;
// the SDKs: a tool that calls elicitInput), read elicitation/create off the call's SSE stream,
// POST the approval on a second connection, and wait for the call's result. One at a time.
import { ELICITING, approvalLine, describe } from '../lib/mcp.mjs';
import { openSession } from '../lib/mcp-http.mjs';
import { percentile, timeSequential } from '../lib/measure.mjs';
import { RawHttpConnection, messageOf } from '../lib/raw-http.mjs';

async function roundTrip(calls, answers, headers, guarded, id) {
  let result;
  let answered;
  const response = await calls.post(guarded.line(id), headers, {
    onMessage: (message) => {
      if (message.method === 'elicitation/create') {
        answered = answers.post(approvalLine(message.id), headers).then((reply) => {
          if (reply.status !== 202) throw new Error(`approval got HTTP ${reply.status}`);
        });
        answered.catch(() => {}); // awaited below, once the call's stream has ended
      } else if (message.id === id && message.method === undefined) {
        result = message;
      }
    },
  });
  if (!answered) {
    const got = response.body ? describe(messageOf(response)) : `HTTP ${response.status}`;
    throw new Error(`${guarded.name} did not ask for approval: ${got}`);
  }
  await answered;
  if (!guarded.ok(result)) throw new Error(`${guarded.name} failed: ${describe(result)}`);
}

export const elicitationHttp = {
  id: 'elicitation-http',
  title: 'Elicitation round trip (call → elicitation/create → approve → result), Streamable HTTP',
  transport: 'http',
  needsElicitation: true,
  metrics: [
    { key: 'p50', label: 'p50 (ms)', short: 'p50', unit: 'ms' },
    { key: 'p99', label: 'p99 (ms)', short: 'p99', unit: 'ms' },
  ],
  async run(server, sizes) {
    const calls = await RawHttpConnection.open(server.url);
    const answers = await RawHttpConnection.open(server.url);
    try {
      const headers = await openSession(calls, ELICITING);
      let id = 0;
      const step = () => roundTrip(calls, answers, headers, server.guarded, ++id);
      await timeSequential({ ...sizes.warmup, step });
      const samples = await timeSequential({ ...sizes.elicitation, step });
      return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
    } finally {
      calls.close();
      answers.close();
    }
  },
};
