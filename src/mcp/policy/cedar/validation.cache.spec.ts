import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCedar, type CedarWasm } from './cedar.loader.js';
import { compilePolicySet } from './policy-set.compiler.js';
import type { SetTexts } from './policy-sources.js';
import { generateSchema } from './schema.generator.js';
import {
  compileCacheValidation,
  FolderValidationCache,
  keepsVerdicts,
  validationKey,
  type KeptVerdict,
} from './validation.cache.js';

/*
 * Strict validation's verdicts kept between starts, with the parse, on real Cedar. Cedar is
 * wrapped only to count the validations and parses it is asked for.
 */

const input = (property: string) => ({
  type: 'object',
  properties: { [property]: { type: 'string' } },
  required: [property],
});
const TOOLS = [{ name: 'open', inputSchema: input('q') }];
const schema = generateSchema(TOOLS, []).json;
const otherSchema = generateSchema([{ name: 'open', inputSchema: input('r') }], []).json;
const valid: SetTexts = {
  policies: [
    {
      name: 'open.cedar',
      text: `@id("open") permit (principal, action == Mcp::Action::"open", resource)
  when { context.input.q == "x" };
@id("never") forbid (principal, action == Mcp::Action::"open", resource) when { false };`,
    },
  ],
};
/* `q` is no attribute of `open`'s input under otherSchema. */
const invalidUnderOther = valid;
const invalid: SetTexts = {
  policies: [
    {
      name: 'bad.cedar',
      text: `@id("bad") permit (principal, action == Mcp::Action::"open", resource)
  when { context.input.nope == 1 };`,
    },
  ],
};

let cedar: CedarWasm;
let dir: string;
beforeAll(async () => {
  cedar = await loadCedar();
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-warden-validation-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Real Cedar, counting its validations and parses. */
function counting() {
  const counted = { validations: 0, parses: 0 };
  const tally =
    <A extends unknown[], R>(what: keyof typeof counted, call: (...args: A) => R) =>
    (...args: A): R => {
      counted[what] += 1;
      return call(...args);
    };
  const wrapped: CedarWasm = {
    ...cedar,
    validate: tally('validations', cedar.validate),
    policySetTextToParts: tally('parses', cedar.policySetTextToParts),
    policyToJson: tally('parses', cedar.policyToJson),
    templateToJson: tally('parses', cedar.templateToJson),
  };
  return { cedar: wrapped, counted };
}

const NONE: KeptVerdict = { warnings: [], policies: [] };

/** `set` compiled twice over one cache: the first start, then one whose Cedar calls are counted. */
async function twoStarts(set: SetTexts) {
  const cache = new FolderValidationCache(join(dir, 'cache'));
  const first = await compilePolicySet(cedar, set, schema, undefined, cache);
  const { cedar: seen, counted } = counting();
  const second = await compilePolicySet(seen, set, schema, undefined, cache);
  return { first, second, counted };
}

describe('compilePolicySet with a validation cache', () => {
  it('validates a set once, then takes the kept verdict, warnings included', async () => {
    const cache = new FolderValidationCache(join(dir, 'cache'));
    const { cedar: seen, counted } = counting();
    const first = await compilePolicySet(seen, valid, schema, undefined, cache);
    const second = await compilePolicySet(seen, valid, schema, undefined, cache);
    expect(counted.validations).toBe(1);
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    // The forbid that can never apply is Cedar's warning, logged again from the kept verdict.
    expect(first.warnings.join('\n')).toContain('never');
    expect(second.warnings).toEqual(first.warnings);
    expect(second.set.version).toBe(first.set.version);
    expect([...second.set.policies.keys()]).toEqual(['open', 'never']);
  });

  it('takes the kept parse with the verdict: a start parses nothing, and gets the same policies', async () => {
    const { first, second, counted } = await twoStarts(valid);
    expect(counted).toEqual({ validations: 0, parses: 0 });
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    // Text, JSON, kind and place (which a message names) are what the parse gave.
    expect([...second.set.policies.values()]).toEqual([...first.set.policies.values()]);
    expect(second.set.policies.get('never')!.origin.offset).toBeGreaterThan(0);
  });

  it('keeps the parse of several texts, templates and links whole: each policy where it was', async () => {
    const several: SetTexts = {
      policies: [
        valid.policies[0]!,
        // The same text twice, in one source and again in another: each is its own policy.
        {
          name: 'twice.cedar',
          text: 'permit (principal, action, resource);\npermit (principal, action, resource);',
        },
        { name: 'again.cedar', text: '// é\npermit (principal, action, resource);' },
      ],
      templates: [
        {
          name: 'templates.cedar',
          text: '@id("owner") permit (principal == ?principal, action == Mcp::Action::"open", resource);',
        },
      ],
      links: [
        {
          templateId: 'owner',
          newId: 'ada',
          values: { '?principal': { type: 'Mcp::User', id: 'ada' } },
        },
      ],
    };
    const { first, second, counted } = await twoStarts(several);
    expect(counted).toEqual({ validations: 0, parses: 0 });
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    expect([...second.set.policies.values()]).toEqual([...first.set.policies.values()]);
    expect(second.set.links).toEqual(first.set.links);
    expect(second.set.version).toBe(first.set.version);
    expect([...second.set.policies.values()].map(({ id, source }) => [id, source])).toEqual([
      ['open', 0],
      ['never', 0],
      ['twice.cedar:0', 1],
      ['twice.cedar:1', 1],
      ['again.cedar:0', 2],
      ['owner', 3],
    ]);
  });

  it('keys two sets apart whatever characters their texts hold', () => {
    // One text that holds what would have separated two sources, and the two sources.
    const one: SetTexts = {
      policies: [
        {
          name: 'a.cedar',
          text: 'permit (principal, action, resource);\n//\u0000policies\u0000b.cedar\u0000forbid (principal, action, resource);',
        },
      ],
    };
    const two: SetTexts = {
      policies: [
        { name: 'a.cedar', text: 'permit (principal, action, resource);\n//' },
        { name: 'b.cedar', text: 'forbid (principal, action, resource);' },
      ],
    };
    expect(validationKey('4.0.0', schema, one, [])).not.toBe(
      validationKey('4.0.0', schema, two, []),
    );
  });

  it('parses and validates again when a kept parse does not fit the set', async () => {
    const cache = new FolderValidationCache(join(dir, 'cache'));
    await compilePolicySet(cedar, valid, schema, undefined, cache);
    const key = validationKey(cedar.getCedarSDKVersion(), schema, valid, []);
    const file = join(dir, 'cache', `${key}.json`);
    const kept = JSON.parse(readFileSync(file, 'utf8'));
    const [open, never] = kept.policies;
    const misfits = [
      // In a text the set does not have, or of the other kind.
      [{ ...open, source: 1 }, never],
      [{ ...open, template: true }, never],
      // A text its source does not hold.
      [{ ...open, text: 'permit (principal, action, resource);' }, never],
      // Not a policy at all, or not one the engine could read.
      [{ ...open, json: null }, never],
      [{ ...open, json: {} }, never],
      [{ ...open, json: { ...open.json, action: { op: '==' } } }, never],
      [{ ...open, json: { ...open.json, effect: 'maybe' } }, never],
      [{ ...open, json: { ...open.json, annotations: { id: 1 } } }, never],
      // One id twice.
      [open, { ...never, id: open.id }],
    ];
    for (const [at, policies] of misfits.entries()) {
      writeFileSync(file, JSON.stringify({ ...kept, policies }));
      const { cedar: seen, counted } = counting();
      const again = await compilePolicySet(seen, valid, schema, undefined, cache);
      expect([at, counted.validations]).toEqual([at, 1]);
      expect(counted.parses).toBeGreaterThan(0);
      expect(again.ok && [...again.set.policies.keys()]).toEqual(['open', 'never']);
    }
  });

  it('validates again when the schema, a text or a source name differs', async () => {
    const cache = new FolderValidationCache(join(dir, 'cache'));
    const { cedar: seen, counted } = counting();
    await compilePolicySet(seen, valid, schema, undefined, cache);
    const renamed = { policies: [{ ...valid.policies[0]!, name: 'renamed.cedar' }] };
    await compilePolicySet(seen, renamed, schema, undefined, cache);
    const edited = { policies: [{ ...valid.policies[0]!, text: `${valid.policies[0]!.text}\n` }] };
    await compilePolicySet(seen, edited, schema, undefined, cache);
    const underOther = await compilePolicySet(
      seen,
      invalidUnderOther,
      otherSchema,
      undefined,
      cache,
    );
    expect(counted.validations).toBe(4);
    // The tools changed: the same text no longer validates, whatever was kept for the old ones.
    expect(underOther.ok).toBe(false);
  });

  it('never keeps a verdict for a set that failed: it fails at every start', async () => {
    const cache = new FolderValidationCache(join(dir, 'cache'));
    const { cedar: seen, counted } = counting();
    for (let start = 0; start < 2; start += 1) {
      const result = await compilePolicySet(seen, invalid, schema, undefined, cache);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.errors.join('\n')).toMatch(/bad\.cedar:2:\d+/);
    }
    expect(counted.validations).toBe(2);
    expect(existsSync(join(dir, 'cache'))).toBe(false);
  });
});

describe('FolderValidationCache', () => {
  const key = validationKey('4.0.0', schema, valid, []);

  it('keeps a verdict in a file only its user may read or write, in a folder only it may write', () => {
    const cache = new FolderValidationCache(join(dir, 'cache'));
    const verdict: KeptVerdict = { warnings: ['a warning'], policies: [] };
    cache.write(key, verdict);
    expect(cache.read(key)).toEqual(verdict);
    expect(statSync(join(dir, 'cache')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'cache', `${key}.json`)).mode & 0o777).toBe(0o600);
    expect(cache.read(validationKey('4.0.1', schema, valid, []))).toBeUndefined();
  });

  it('reads nothing another user could have written or redirected', () => {
    const folder = join(dir, 'cache');
    const cache = new FolderValidationCache(folder);
    cache.write(key, NONE);
    const file = join(folder, `${key}.json`);

    chmodSync(file, 0o666);
    expect(cache.read(key)).toBeUndefined();
    chmodSync(file, 0o600);
    expect(cache.read(key)).toEqual(NONE);

    chmodSync(folder, 0o777);
    expect(cache.read(key)).toBeUndefined();
    chmodSync(folder, 0o700);

    // A verdict filed under another key's name, or a link to one, is not this key's.
    const other = validationKey('4.0.1', schema, valid, []);
    rmSync(file);
    writeFileSync(file, JSON.stringify({ key: other, ...NONE }), { mode: 0o600 });
    expect(cache.read(key)).toBeUndefined();
    rmSync(file);
    cache.write(other, NONE);
    symlinkSync(join(folder, `${other}.json`), file);
    expect(cache.read(key)).toBeUndefined();
  });

  it('is a miss, never an error, when its folder cannot be made', () => {
    const blocked = join(dir, 'a-file');
    writeFileSync(blocked, '');
    const cache = new FolderValidationCache(join(blocked, 'cache'));
    cache.write(key, NONE);
    expect(cache.read(key)).toBeUndefined();
  });
});

describe('keepsVerdicts', () => {
  const key = validationKey('4.0.0', schema, valid, []);

  it('is false for a compile cache folder with no verdict, and true once one is kept', () => {
    expect(keepsVerdicts(dir)).toBe(false);
    // A verdict still being written (its temporary name) is none.
    mkdirSync(join(dir, 'mcp-warden-cedar-validation'));
    writeFileSync(join(dir, 'mcp-warden-cedar-validation', `.${key}.abc`), '{}');
    expect(keepsVerdicts(dir)).toBe(false);
    compileCacheValidation(dir)!.write(key, NONE);
    expect(keepsVerdicts(dir)).toBe(true);
  });

  it('is false where there is no compile cache folder', () => {
    expect(keepsVerdicts(join(dir, 'missing'))).toBe(false);
    expect(compileCacheValidation('')).toBeUndefined();
    expect(keepsVerdicts('')).toBe(false);
  });
});
