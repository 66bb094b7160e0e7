#!/usr/bin/env node
/**
 * Checks the guide (README.md, docs/*.md, examples/README.md) against the repository:
 *
 * - a code block whose first line names a file (`// examples/snippets/harness.ts (excerpt)`,
 *   `// examples/tickets/tickets.resources.ts and tickets.prompts.ts (excerpts)`) must be that
 *   file's text: every line of the block, in order, is a line of the file (indentation aside).
 *   A line `// …` stands for lines left out, and `/* … *\/` inside a line for part of it. The
 *   examples are compiled by `npm run typecheck` and run by test/examples/snippets.e2e-spec.ts,
 *   so what the guide shows is code that compiles and runs;
 * - every relative link resolves to a file of the repository, and every `#anchor` to a heading
 *   of the page it names;
 * - the README stays at most README_MAX_LINES lines (the rest of the guide lives in docs/) and
 *   links every page of docs/.
 *
 * `node scripts/docs/check-docs.mjs` prints each problem and exits 1 if there is one;
 * `npm run docs:check` runs it, and check-docs.spec.mjs runs it as part of `npm test`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The README is the front page; the guide's pages are in docs/. */
export const README_MAX_LINES = 300;

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The pages checked, relative to the repository root. */
export function guidePages(root = ROOT) {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs, 'examples/README.md'].filter((page) =>
    existsSync(join(root, page)),
  );
}

/** A block's first line naming the file(s) it is taken from. */
const HEADER = /^\/\/ ((?:examples|test|src|scripts)\/\S+)(?: and (\S+))?(?: \(excerpts?\))?$/;

/** Fenced code blocks: `{ line, info, lines }`, `line` being the 1-based line of the fence. */
export function codeBlocks(markdown) {
  const blocks = [];
  let open;
  markdown.split('\n').forEach((text, index) => {
    const fence = /^\s*(```+|~~~+)(.*)$/.exec(text);
    if (!open) {
      if (fence) open = { line: index + 1, marker: fence[1], info: fence[2].trim(), lines: [] };
      return;
    }
    if (fence && fence[1].startsWith(open.marker) && fence[2].trim() === '') {
      blocks.push({ line: open.line, info: open.info, lines: open.lines });
      open = undefined;
    } else {
      open.lines.push(text);
    }
  });
  return blocks;
}

/** The files a block says it is taken from (paths from the root), or undefined. */
export function excerptSources(block) {
  const match = HEADER.exec((block.lines[0] ?? '').trim());
  if (!match) return undefined;
  const [, first, second] = match;
  return second ? [first, join(dirname(first), second)] : [first];
}

const ELIDED_LINE = /^(\/\/\s*)?…$/;
const ELIDED_PART = '/* … */';

/** A line without its trailing ` // comment`. */
const code = (line) => {
  const at = line.indexOf(' // ');
  return at === -1 ? line : line.slice(0, at).trimEnd();
};

/** `import { a, b } from 'x';` as `{ names, from }`, or undefined. */
const namedImport = (line) => {
  const match = /^import (?:type )?\{([^}]*)\} from '([^']+)';$/.exec(line);
  if (!match) return undefined;
  const names = match[1]
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return { names, from: match[2] };
};

/** The entry point a file of examples/ or test/ imports in place of the package. */
const PACKAGE_ENTRIES = new Map([
  ['mcp-warden', /^(\.\.\/)+src\/index\.js$/],
  ['mcp-warden/testing', /^(\.\.\/)+src\/testing\/index\.js$/],
]);

/** Whether a block line (trimmed) stands for a file line (trimmed). */
function lineMatches(shown, actual) {
  if (shown === actual) return true;
  if (shown.includes(ELIDED_PART)) {
    const pattern = shown
      .split(ELIDED_PART)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    return new RegExp(`^${pattern}$`).test(actual);
  }
  // The guide's own note at the end of a line of the file.
  if (code(shown) !== shown && code(shown) === code(actual)) return true;
  // The package's name where the example imports the library from the checkout.
  const wanted = namedImport(shown);
  const found = namedImport(actual);
  const entry = wanted && PACKAGE_ENTRIES.get(wanted.from);
  return Boolean(
    entry &&
    found &&
    entry.test(found.from) &&
    wanted.names.every((name) => found.names.includes(name)),
  );
}

/**
 * The first line of `shown` (a block without its header) that is not, in order, a line of
 * `source`: `{ index, text }`, or undefined when every line is.
 */
export function firstMismatch(shown, source) {
  const actual = source.split('\n').map((line) => line.trim());
  let at = 0;
  for (const [index, line] of shown.entries()) {
    const text = line.trim();
    if (text === '' || ELIDED_LINE.test(text)) continue;
    while (at < actual.length && !lineMatches(text, actual[at])) at++;
    if (at === actual.length) return { index, text };
    at++;
  }
  return undefined;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading) {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a page's headings make (a repeated heading gets `-1`, `-2`, …). */
export function anchors(markdown) {
  const prose = stripCode(markdown, { inline: false });
  const seen = new Map();
  const found = new Set();
  for (const line of prose.split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

/** The page without its code: fenced blocks become blank lines, inline code spans go. */
function stripCode(markdown, { inline = true } = {}) {
  const lines = markdown.split('\n');
  let fence;
  return lines
    .map((line) => {
      const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
      if (fence) {
        if (marker && marker.startsWith(fence)) fence = undefined;
        return '';
      }
      if (marker) {
        fence = marker;
        return '';
      }
      return inline ? line.replace(/(`+)[^`]*?\1/g, '') : line;
    })
    .join('\n');
}

/** Relative links of a page: `{ line, target }` (web, mail and bare-anchor links included). */
export function links(markdown) {
  const found = [];
  const prose = stripCode(markdown);
  // Inline links may wrap across lines; scan the whole text, then count lines up to each hit.
  const pattern = /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
  for (const match of prose.matchAll(pattern)) {
    const line = prose.slice(0, match.index).split('\n').length;
    found.push({ line, target: match[1] });
  }
  return found;
}

/** Every problem of one page, as `page:line: text`. */
export function checkPage(page, root = ROOT) {
  const problems = [];
  const file = join(root, page);
  const markdown = readFileSync(file, 'utf8');

  for (const block of codeBlocks(markdown)) {
    const sources = excerptSources(block);
    if (!sources) continue;
    const missing = sources.filter((source) => !existsSync(join(root, source)));
    if (missing.length > 0) {
      problems.push(`${page}:${block.line}: the excerpt's file ${missing.join(', ')} is missing`);
      continue;
    }
    const text = sources.map((source) => readFileSync(join(root, source), 'utf8')).join('\n');
    const mismatch = firstMismatch(block.lines.slice(1), text);
    if (mismatch) {
      const line = block.line + 2 + mismatch.index;
      problems.push(
        `${page}:${line}: not in ${sources.join(' + ')} (in this order): ${mismatch.text}`,
      );
    }
  }

  for (const { line, target } of links(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …
    const [path, anchor] = target.split('#', 2);
    const linked = path === '' ? file : resolve(dirname(file), decodeURI(path));
    const shown = path === '' ? page : relative(root, linked);
    if (!linked.startsWith(root) || !existsSync(linked)) {
      problems.push(`${page}:${line}: link to a missing file: ${target}`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!linked.endsWith('.md') || statSync(linked).isDirectory()) {
      problems.push(`${page}:${line}: an anchor on a page that is not Markdown: ${target}`);
      continue;
    }
    if (!anchors(readFileSync(linked, 'utf8')).has(anchor)) {
      problems.push(`${page}:${line}: no heading #${anchor} in ${shown}`);
    }
  }

  if (page === 'README.md') {
    const count = markdown.replace(/\n$/, '').split('\n').length;
    if (count > README_MAX_LINES) {
      problems.push(
        `README.md: ${count} lines; at most ${README_MAX_LINES} (the rest goes to docs/)`,
      );
    }
    // The README's index links every page of the guide.
    const linked = new Set(links(markdown).map(({ target }) => target.split('#')[0]));
    for (const doc of guidePages(root).filter((other) => other.startsWith('docs/'))) {
      if (!linked.has(doc)) problems.push(`README.md: the index does not link ${doc}`);
    }
  }
  return problems;
}

/** Every problem of every page. */
export function checkDocs(root = ROOT) {
  return guidePages(root).flatMap((page) => checkPage(page, root));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = checkDocs();
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(`docs: ${problems.length} problem(s)`);
    process.exit(1);
  }
  process.stdout.write(`docs: ${guidePages().length} pages checked\n`);
}
