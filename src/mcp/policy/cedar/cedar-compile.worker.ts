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
 * It decides nothing for the app and ends once done. The validator is left out where the boot
 * will most likely take a kept verdict instead of validating (validation.cache.ts): there it
 * only took a core from the app's boot. The module is compiled under Cedar's tiering budget
 * (tiering-budget.ts). docs/policy.md, "Performance".
 */

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
  const schema = {
    W: {
      commonTypes: { Session: { type: 'Record', attributes: { transport: { type: 'String' } } } },
      entityTypes: {
        Group: { memberOfTypes: ['Group'] },
        User: {
          memberOfTypes: ['Group'],
          shape: { type: 'Record', attributes: {
            subject: { type: 'String' },
            issuer: { type: 'String', required: false },
            scopes: { type: 'Set', element: { type: 'String' } },
          } },
        },
        Anonymous: {},
        Server: { shape: { type: 'Record', attributes: { name: { type: 'String' } } }, tags: { type: 'String' } },
      },
      actions: {
        'tools/call': {},
        note: {
          memberOf: [{ id: 'tools/call' }],
          appliesTo: {
            principalTypes: ['User', 'Anonymous'],
            resourceTypes: ['Server'],
            context: { type: 'Record', attributes: {
              input: { type: 'Record', attributes: {
                text: { type: 'String' },
                count: { type: 'Long', required: false },
                tags: { type: 'Set', element: { type: 'String' }, required: false },
              } },
              session: { type: 'Session' },
            } },
          },
        },
      },
    },
  };
  const text = [
    '@id("asks")',
    '@ask("Write {input.text}?")',
    'permit (principal in W::Group::"writers", action == W::Action::"note", resource)',
    '  when { context.input.text like "a*" && context.input has count && context.input.count > 3 }',
    '  unless { principal.scopes.contains("read-only") || context.session.transport == "stdio" };',
    '@id("forbids")',
    '@reason("tagged")',
    'forbid (principal, action in [W::Action::"tools/call"], resource is W::Server)',
    '  when { resource.hasTag("closed") && resource.getTag("closed") == "yes" };',
    'permit (principal is W::Anonymous, action, resource);',
  ].join('\\n');
  const parts = cedar.policySetTextToParts(text);
  const texts = {};
  const json = {};
  parts.policies.forEach((policy, index) => {
    texts['p' + index] = policy;
    json['p' + index] = cedar.policyToJson(policy).json;
  });
  if (workerData.validate) {
    cedar.validate({ schema, policies: { staticPolicies: texts }, validationSettings: { mode: 'strict' } });
  }
  cedar.preparsePolicySet('warmup', { staticPolicies: json });
  cedar.statefulIsAuthorized({
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
});
`;
