import { loadCedar, type CedarWasm } from './cedar.loader.js';
import { startCompileWorker } from './cedar.precompiler.js';
import { WARM_UP_POLICIES, WARM_UP_SCHEMA } from './warm-up.set.js';

/*
 * The worker's warm-up set is written twice, as text and as Cedar's JSON: real Cedar must read
 * the one as the other, or the warm-up would preparse a set no boot ever sees.
 */
let cedar: CedarWasm;
beforeAll(async () => {
  cedar = await loadCedar();
});

describe('the warm-up set', () => {
  it.each(Object.entries(WARM_UP_POLICIES))(
    '%s: its JSON is its text as Cedar parses it',
    (_, policy) => {
      const answer = cedar.policyToJson(policy.text);
      expect(answer.type).toBe('success');
      if (answer.type === 'success') expect(answer.json).toEqual(policy.json);
    },
  );

  it('validates against its schema in strict mode, with no error', () => {
    const staticPolicies = Object.fromEntries(
      Object.entries(WARM_UP_POLICIES).map(([id, policy]) => [id, policy.text]),
    );
    const answer = cedar.validate({
      schema: WARM_UP_SCHEMA,
      policies: { staticPolicies },
      validationSettings: { mode: 'strict' },
    });
    expect(answer.type).toBe('success');
    if (answer.type === 'success') expect(answer.validationErrors).toEqual([]);
  });
});

/*
 * The worker itself, on both paths: a warm-up that threw would end the worker silently (its
 * module is handed over first), and every boot would compile on the main thread again.
 */
describe('the compiling worker', () => {
  it.each([true, false])('warms up and ends cleanly (validator warmed: %s)', async (validate) => {
    const worker = startCompileWorker(validate);
    const errors: unknown[] = [];
    worker.on('error', (error) => errors.push(error));
    const messages: unknown[] = [];
    worker.on('message', (message) => messages.push(message));
    const code = await new Promise((resolve) => worker.once('exit', resolve));
    expect({ code, errors }).toEqual({ code: 0, errors: [] });
    // The compiled module first, then the warm-up's own decision: its set preparsed and decided.
    expect(messages).toHaveLength(2);
    // (Of the worker's realm, not Jest's: its tag, not `instanceof`.)
    expect(Object.prototype.toString.call(messages[0])).toBe('[object WebAssembly.Module]');
    expect(messages[1]).toEqual({ warmed: 'allow' });
  });
});
