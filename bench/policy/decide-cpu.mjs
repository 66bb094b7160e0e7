// CPU per Cedar decision, in process: `McpPolicy.decideTool('echo', …)` called in a tight loop
// against the bench servers' Cedar sets (servers/echo-policy.mjs), three ways:
//   cached:      the twin of the closures, the same request every time (after the first, the
//                decision cache answers);
//   cachedInput: the twin whose `echo` rule reads its argument, the same request every time
//                (cached too, but the arguments are converted and part of the cache key);
//   varied:      that set, a new `text` every time (the cache never hits: Cedar evaluates each).
// The plain twin reads no argument of `echo`, so it shares one decision across texts: a new text
// is evaluated only where a rule reads it. Batches of the three alternate, so the machine's other
// work weighs on all alike; each batch's CPU time (process.cpuUsage, user + system) is divided by
// its decisions, and the median batch is reported. Prints one JSON line:
// `{ cachedUs, cachedInputUs, variedUs, batches, size }`.
//   node bench/policy/decide-cpu.mjs [--batches N] [--size N]
import { parseArgs } from 'node:util';
import { median } from '../lib/measure.mjs';
import { echoCedarText } from '../servers/echo-policy.mjs';
import { bootPolicyApp, CALL_CONTEXT } from './policy-app.mjs';

const { values } = parseArgs({
  options: {
    batches: { type: 'string', default: '15' },
    size: { type: 'string', default: '2000' },
  },
});
const batches = Number(values.batches);
const size = Number(values.size);

const textInput = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
const tools = ['echo', 'guarded_echo'].map((name) => ({ name, inputSchema: textInput }));
const boot = (readsInput) =>
  bootPolicyApp(tools, { policies: { text: echoCedarText(['echo'], { readsInput }) } });
const twin = await boot(false);
const reading = await boot(true);

const decide = ({ policy }, args) => policy.decideTool('echo', args, CALL_CONTEXT);
// The sets read what they are meant to: a text that is no string is left out of the input, which
// only the reading set notices (its rule then fails to apply, so nothing permits).
if (decide(twin, { text: 42 }).kind !== 'allow' || decide(reading, { text: 42 }).kind !== 'deny') {
  throw new Error('the Cedar sets do not read echo arguments as expected');
}

const same = { text: 'hello' };
let counter = 0;
const KINDS = {
  cached: [twin, () => same],
  cachedInput: [reading, () => same],
  varied: [reading, () => ({ text: `hello-${++counter}` })],
};

/** µs of CPU per decision over `size` decisions of `args()` by `app`'s policy; each must allow. */
async function batch([app, args]) {
  const before = process.cpuUsage();
  for (let i = 0; i < size; i++) {
    let decision = decide(app, args());
    // Synchronous when nothing asynchronous (an entities hook) is configured; awaited otherwise.
    if (decision instanceof Promise) decision = await decision;
    if (decision.kind !== 'allow')
      throw new Error(`echo was not allowed: ${JSON.stringify(decision)}`);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / size;
}

const samples = Object.fromEntries(Object.keys(KINDS).map((kind) => [kind, []]));
// The first batch of each warms the code paths up (and fills the cache); it is not counted.
for (const kind of Object.keys(KINDS)) await batch(KINDS[kind]);
for (let b = 0; b < batches; b++) {
  for (const kind of Object.keys(KINDS)) samples[kind].push(await batch(KINDS[kind]));
}
await Promise.all([twin.app.close(), reading.app.close()]);
const report = Object.fromEntries(
  Object.entries(samples).map(([kind, values]) => [`${kind}Us`, median(values)]),
);
process.stdout.write(`${JSON.stringify({ ...report, batches, size })}\n`);
