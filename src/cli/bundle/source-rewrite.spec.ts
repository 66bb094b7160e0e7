import { build } from 'esbuild';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rewriteOnLoad } from './source-rewrite.js';

describe('rewriteOnLoad', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'source-rewrite-'));
    await writeFile(join(dir, 'entry.js'), "export const word = 'eager';\n");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const bundle = (rewrite: (source: string) => string | undefined) =>
    build({
      entryPoints: [join(dir, 'entry.js')],
      bundle: true,
      write: false,
      format: 'esm',
      logLevel: 'silent',
      plugins: [
        { name: 'test', setup: (b) => rewriteOnLoad(b, /entry\.js$/, rewrite, 'word not found') },
      ],
    });

  it('bundles what the rewrite made of the file', async () => {
    const result = await bundle((source) => source.replace('eager', 'lazy'));
    expect(result.outputFiles[0].text).toContain('"lazy"');
    expect(result.warnings).toEqual([]);
  });

  it('bundles a file it does not recognise as it is, with a warning naming it', async () => {
    const result = await bundle(() => undefined);
    expect(result.outputFiles[0].text).toContain('"eager"');
    expect(result.warnings.map((warning) => warning.text)).toEqual([
      `${join(dir, 'entry.js')}: word not found`,
    ]);
  });
});
