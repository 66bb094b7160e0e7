import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  anchors,
  checkDocs,
  checkPage,
  codeBlocks,
  excerptSources,
  firstMismatch,
  links,
  README_MAX_LINES,
  slug,
} from './check-docs.mjs';

describe('the guide (README.md, docs/*.md, examples/README.md)', () => {
  it('shows its excerpts as the files have them, and every link and anchor resolves', () => {
    expect(checkDocs()).toEqual([]);
  });
});

describe('excerpts', () => {
  const source = [
    "import { McpTool } from '../../src/index.js';",
    "import { McpTestClient, McpTestClientError } from '../../src/testing/index.js';",
    'export class Tools {',
    '  @McpTool({ description: "x" })',
    '  run(ctx) {',
    '    const draft = await ctx.sample({ messages: [one, two], maxTokens: 200 });',
    '    return draft; // the result',
    '  }',
    '}',
  ].join('\n');

  it('takes the lines in order, indentation aside, with `// …` for lines left out', () => {
    expect(
      firstMismatch(['export class Tools {', '  // …', 'return draft; // the result'], source),
    ).toBeUndefined();
    expect(firstMismatch(['return draft;', 'export class Tools {'], source)).toEqual({
      index: 0,
      text: 'return draft;',
    });
  });

  it('reports a line the file does not have', () => {
    expect(firstMismatch(['export class Tools {', 'run(ctx, more) {'], source)).toEqual({
      index: 1,
      text: 'run(ctx, more) {',
    });
  });

  it('lets `/* … */` stand for part of a line, and a note end a line of the file', () => {
    const shown = [
      'const draft = await ctx.sample({ messages: [/* … */], maxTokens: 200 });',
      'return draft; // what the tool answers',
    ];
    expect(firstMismatch(shown, source)).toBeUndefined();
    expect(firstMismatch(['const draft = await ctx.sample({ /* … */ }, 1);'], source)).toEqual({
      index: 0,
      text: 'const draft = await ctx.sample({ /* … */ }, 1);',
    });
  });

  it("shows the package's name where the file imports the library from the checkout", () => {
    expect(
      firstMismatch(["import { McpTestClient } from 'mcp-warden/testing';"], source),
    ).toBeUndefined();
    expect(firstMismatch(["import { McpTool } from 'mcp-warden';"], source)).toBeUndefined();
    expect(firstMismatch(["import { McpWarden } from 'mcp-warden';"], source)).toEqual({
      index: 0,
      text: "import { McpWarden } from 'mcp-warden';",
    });
  });

  it('finds the blocks headed by a file path, one file or two', () => {
    const markdown = [
      '```ts',
      '// examples/tickets/tickets.resources.ts and tickets.prompts.ts (excerpts)',
      'x',
      '```',
      '',
      '```ts',
      '// examples/snippets/app.module.ts',
      '```',
      '',
      '```ts',
      'const notAnExcerpt = 1;',
      '```',
    ].join('\n');
    const blocks = codeBlocks(markdown);
    expect(blocks.map((block) => block.line)).toEqual([1, 6, 10]);
    expect(blocks.map(excerptSources)).toEqual([
      ['examples/tickets/tickets.resources.ts', 'examples/tickets/tickets.prompts.ts'],
      ['examples/snippets/app.module.ts'],
      undefined,
    ]);
  });
});

describe('links and anchors', () => {
  it("makes GitHub's anchors from headings", () => {
    expect(slug('`McpModule.forRoot()`')).toBe('mcpmoduleforroot');
    expect(slug('Icons, title and `_meta`')).toBe('icons-title-and-_meta');
    expect(slug('Protocol eras: 2026-07-28 beside the handshake')).toBe(
      'protocol-eras-2026-07-28-beside-the-handshake',
    );
    expect(slug('Test with `mcp-warden/testing`')).toBe('test-with-mcp-wardentesting');
    expect(slug('Bearer tokens (OAuth 2.1 resource server)')).toBe(
      'bearer-tokens-oauth-21-resource-server',
    );
    expect([...anchors('# Page\n## Limits\n```\n## not a heading\n```\n## Limits\n')]).toEqual([
      'page',
      'limits',
      'limits-1',
    ]);
  });

  it('reads links outside code, across a line break', () => {
    const markdown = 'See [the\nseams](authorization.md#the-two-seams) and `[x](not-a-link.md)`.';
    expect(links(markdown)).toEqual([{ line: 2, target: 'authorization.md#the-two-seams' }]);
  });

  describe('on pages of their own', () => {
    let root;
    const write = (path, text) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    it('reports a missing file, a missing anchor, an unlisted page and a long README', () => {
      root = mkdtempSync(join(tmpdir(), 'check-docs-'));
      write('docs/http.md', '# Serve over HTTP\n\n## Limits\n\n[gone](gone.md), [ok](#limits)\n');
      write('docs/stdio.md', '# stdio\n\n[there](http.md#limits) [not there](http.md#fastify)\n');
      write('README.md', `[HTTP](docs/http.md)\n${'line\n'.repeat(README_MAX_LINES)}`);
      expect(checkPage('docs/http.md', root)).toEqual([
        'docs/http.md:5: link to a missing file: gone.md',
      ]);
      expect(checkPage('docs/stdio.md', root)).toEqual([
        'docs/stdio.md:3: no heading #fastify in docs/http.md',
      ]);
      expect(checkPage('README.md', root)).toEqual([
        `README.md: ${README_MAX_LINES + 1} lines; at most ${README_MAX_LINES} (the rest goes to docs/)`,
        'README.md: the index does not link docs/stdio.md',
      ]);
    });

    it("reports an excerpt that is not the file's text", () => {
      root = mkdtempSync(join(tmpdir(), 'check-docs-'));
      write('examples/a.ts', 'export const a = 1;\nexport const b = 2;\n');
      write(
        'docs/a.md',
        '```ts\n// examples/a.ts (excerpt)\nexport const b = 2;\nexport const a = 1;\n```\n',
      );
      write('docs/b.md', '```ts\n// examples/missing.ts\n```\n');
      write('README.md', '[a](docs/a.md) [b](docs/b.md)\n');
      expect(checkDocs(root)).toEqual([
        'docs/a.md:4: not in examples/a.ts (in this order): export const a = 1;',
        "docs/b.md:1: the excerpt's file examples/missing.ts is missing",
      ]);
    });
  });
});
