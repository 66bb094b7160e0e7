import { loadCedar, type CedarWasm } from './cedar.loader.js';
import { CedarPolicyEngine } from './cedar-policy.engine.js';
import { READ_ACTIONS } from './vocabulary.js';
import type { AuthorizerContext } from '../../authorization/authorizer.interface.js';

/*
 * When the engine preparses its sets, on real Cedar: the boot's sets at each action's first
 * decision, a reload's all before it applies. Cedar is wrapped only to see which sets it is
 * asked to preparse (and, in one test, to refuse one).
 */

const TOOLS = [
  { name: 'open', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
  { name: 'shut', inputSchema: { type: 'object', properties: {} } },
];

const TEXT = `
@id("open") permit (principal, action == Mcp::Action::"open", resource);
@id("shut") @ask("Shut?") permit (principal, action == Mcp::Action::"shut", resource);`;

/* An anonymous caller over stdio: the policies permit anyone. */
const context: AuthorizerContext = { connId: 'sets', transport: 'stdio' };

let cedar: CedarWasm;
beforeAll(async () => {
  cedar = await loadCedar();
});

/** An engine on real Cedar that records the id of every set it preparses. */
async function engineSeeingPreparses(refuse?: (id: string) => boolean) {
  const preparsed: string[] = [];
  const errors: string[] = [];
  const seen: CedarWasm = {
    ...cedar,
    preparsePolicySet: (id, set) => {
      preparsed.push(id.replace(/^.*:(decide|visible):/, '$1:'));
      return refuse?.(id)
        ? {
            type: 'failure',
            errors: [
              {
                message: 'refused',
                help: null,
                code: null,
                url: null,
                severity: null,
                sourceLocations: [],
                related: [],
              },
            ],
          }
        : cedar.preparsePolicySet(id, set);
    },
  } as CedarWasm;
  const engine = await CedarPolicyEngine.create(
    seen,
    'server',
    { policies: { text: TEXT } },
    TOOLS,
    { warn: () => undefined, error: (message) => errors.push(message) },
  );
  const decide = (tool: string) =>
    (engine.decide('tool', tool, {}, context) as Awaited<ReturnType<CedarPolicyEngine['decide']>>)
      .verdict.decision;
  return { engine, preparsed, errors, decide };
}

describe('the sets a policy engine preparses', () => {
  it('at boot, none: each action gets its sets at its first decision, once', async () => {
    const { engine, preparsed, decide } = await engineSeeingPreparses();
    expect(preparsed).toEqual([]);

    expect(decide('open')).toEqual({ kind: 'allow' });
    expect(preparsed).toEqual(['decide:open', 'visible:open']);
    expect(decide('open')).toEqual({ kind: 'allow' });
    expect(await engine.visible('open', context)).toBe(true);
    expect(preparsed).toHaveLength(2);

    expect(await engine.visible('shut', context)).toBe(true);
    expect(decide('shut')).toEqual({ kind: 'ask', prompt: 'Shut?' });
    expect(decide('nope')).toEqual({ kind: 'deny', reason: 'not_permitted' });
    expect(preparsed).toEqual([
      'decide:open',
      'visible:open',
      'decide:shut',
      'visible:shut',
      'decide:*',
      'visible:*',
    ]);
  });

  it('on reload, every action before the new set applies, and no more after', async () => {
    const { engine, preparsed, decide } = await engineSeeingPreparses();
    expect(await engine.reload()).toMatchObject({ applied: true });
    const actions = [...TOOLS.map((tool) => tool.name), ...READ_ACTIONS, '*'];
    expect(preparsed.sort()).toEqual(
      actions.flatMap((action) => [`decide:${action}`, `visible:${action}`]).sort(),
    );
    expect(decide('open')).toEqual({ kind: 'allow' });
    expect(decide('nope')).toEqual({ kind: 'deny', reason: 'not_permitted' });
    expect(preparsed).toHaveLength(actions.length * 2);
  });

  it('a first decision whose preparse Cedar refuses denies (policy_failed), and others decide', async () => {
    const { engine, preparsed, errors, decide } = await engineSeeingPreparses((id) =>
      id.endsWith(':decide:open'),
    );
    expect(decide('open')).toEqual({ kind: 'deny', reason: 'policy_failed' });
    expect(await engine.visible('open', context)).toBe(false);
    expect(decide('open')).toEqual({ kind: 'deny', reason: 'policy_failed' });
    expect(errors.join('\n')).toContain('Cedar refused a checked set: refused');
    // Its answer would not change: Cedar is asked once.
    expect(preparsed).toEqual(['decide:open']);
    expect(decide('shut')).toEqual({ kind: 'ask', prompt: 'Shut?' });
  });
});
