import { build } from 'esbuild';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { lazyLocaleIndex, lazyZodLocalesPlugin } from './lazy-zod-locales.plugin.js';

/*
 * A bundle of zod's `z` namespace, as the MCP packages import it, built under the checkout so
 * the stand-ins find zod in its node_modules, as a deployed bundle finds the app's.
 */
describe('lazyZodLocalesPlugin', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(process.cwd(), '.tmp-zod-locales-'));
    const entry = join(dir, 'entry.mjs');
    await writeFile(
      entry,
      [
        "import * as z from 'zod';",
        'export const names = Object.keys(z.locales).sort();',
        'export const de = () => z.locales.de();',
        'export const english = () => z.string().safeParse(3).error.issues[0].message;',
      ].join('\n'),
    );
    for (const [name, plugins] of [
      ['lazy', [lazyZodLocalesPlugin()]],
      ['eager', []],
    ] as const) {
      await build({
        entryPoints: [entry],
        outfile: join(dir, `${name}.mjs`),
        bundle: true,
        platform: 'node',
        format: 'esm',
        minify: true,
        plugins: [...plugins],
        logLevel: 'silent',
      });
    }
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const load = (name: string) => import(pathToFileURL(join(dir, `${name}.mjs`)).href);

  it('leaves every locale but English out of the bundle, which is a quarter of its size', async () => {
    const [lazy, eager] = await Promise.all(
      ['lazy', 'eager'].map((name) => readFile(join(dir, `${name}.mjs`), 'utf8')),
    );
    // German's word for "characters", in its messages only.
    expect(eager).toContain('Zeichen');
    expect(lazy).not.toContain('Zeichen');
    expect(lazy.length).toBeLessThan(eager.length * 0.75);
  });

  it('keeps every locale name, and a locale called loads the real one', async () => {
    const [lazy, eager] = await Promise.all([load('lazy'), load('eager')]);
    expect(lazy.names).toEqual(eager.names);
    expect(lazy.names).toContain('de');
    const german = lazy.de();
    expect(
      german.localeError({ code: 'too_small', origin: 'string', minimum: 3, input: 'a' }),
    ).toEqual(
      eager.de().localeError({ code: 'too_small', origin: 'string', minimum: 3, input: 'a' }),
    );
    expect(lazy.english()).toBe(eager.english());
  });

  it('leaves an index it does not recognise as it is', () => {
    expect(lazyLocaleIndex('export * from "./all.js";')).toBeUndefined();
    expect(lazyLocaleIndex('')).toBeUndefined();
    expect(lazyLocaleIndex('export { default as en } from "./en.js";\n')).toContain('./en.js');
  });
});
