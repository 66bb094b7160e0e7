/*
 * The worker that compiles Cedar's engine while the app loads and Nest boots
 * (cedar.precompiler.ts starts it). On the main thread, the read (4 MB) and even an asynchronous
 * compile wait for the event loop, which a loading bundle or a booting Nest holds for hundreds of
 * milliseconds; a worker reads and compiles at once, and hands the module back.
 *
 * V8 then compiles each WebAssembly function the first time it is called, and one process
 * shares that code between its threads. A policy layer's boot calls a good part of Cedar once
 * (the parser, the schema, the strict validator, preparsing, a first decision): about 150 ms of
 * compiling on the main thread at the end of Nest's boot. So the worker goes on to run the same
 * calls on a small set of its own, and the main thread later finds most of that code compiled.
 * It decides nothing for the app and ends once done. Where the boot will most likely take a
 * kept verdict and parse (validation.cache.ts), the parser and the validator are left out, and
 * the set is preparsed from its JSON: warming them there only took a core from the app's boot.
 * The module is compiled under Cedar's tiering budget (tiering-budget.ts). docs/policy.md,
 * "Performance".
 */

import { WARM_UP_POLICIES, WARM_UP_SCHEMA } from './warm-up.set.js';

const byId = (part: 'text' | 'json') =>
  Object.fromEntries(Object.entries(WARM_UP_POLICIES).map(([id, policy]) => [id, policy[part]]));

export const CEDAR_COMPILE_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { setFlagsFromString } = require('node:v8');
const bytes = require('node:fs').readFileSync(workerData.wasm);
setFlagsFromString('--wasm-tiering-budget=' + workerData.budget);
let module;
try {
  module = new WebAssembly.Module(bytes);
} finally {
  setFlagsFromString('--wasm-tiering-budget=' + workerData.restore);
}
parentPort.postMessage(module);
import(workerData.entry).then((cedar) => {
  cedar.initSync({ module });
  if (workerData.validate) {
    // What a boot without a kept verdict calls: the parser, its JSON, the strict validator.
    const texts = ${JSON.stringify(byId('text'))};
    const parts = cedar.policySetTextToParts(Object.values(texts).join('\\n'));
    for (const policy of parts.policies) cedar.policyToJson(policy);
    const schema = ${JSON.stringify(WARM_UP_SCHEMA)};
    cedar.validate({ schema, policies: { staticPolicies: texts }, validationSettings: { mode: 'strict' } });
  }
  cedar.preparsePolicySet('warmup', { staticPolicies: ${JSON.stringify(byId('json'))} });
  const answer = cedar.statefulIsAuthorized({
    principal: { type: 'W::User', id: 'u' },
    action: { type: 'W::Action', id: 'note' },
    resource: { type: 'W::Server', id: 's' },
    context: { input: { text: 'ab', count: 4 }, session: { transport: 'http' } },
    preparsedPolicySetId: 'warmup',
    validateRequest: false,
    entities: [
      { uid: { type: 'W::User', id: 'u' }, attrs: { subject: 'u', scopes: ['write'] }, parents: [{ type: 'W::Group', id: 'writers' }] },
      { uid: { type: 'W::Server', id: 's' }, attrs: { name: 's' }, parents: [], tags: { closed: 'no' } },
    ],
  });
  // Nobody listens for it: it tells a spec the warm-up ran through (warm-up.set.spec.ts).
  parentPort.postMessage({ warmed: answer.type === 'success' ? answer.response.decision : answer });
});
`;
