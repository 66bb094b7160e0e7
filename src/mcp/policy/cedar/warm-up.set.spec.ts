import { loadCedar, type CedarWasm } from './cedar.loader.js';
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
