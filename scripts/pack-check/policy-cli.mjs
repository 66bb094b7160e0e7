// @ts-check
/*
 * The `mcp-warden` command as a team runs it: from the installed tarball, in the app's folder,
 * through the bin npm linked (node_modules/.bin/mcp-warden, what `npx mcp-warden` finds).
 * The tarball ships no policies/, so the repository's worked example is copied into the app:
 * policies/ as it is, and policies-broken/ with one action name typo'd in a policy and one
 * case's expectation flipped. The whole ones must pass; each broken one must exit 1 and name
 * what broke (the typo's file:line:col, the flipped case's name).
 */
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import { CheckError, checkNoWarnings, runToEnd } from './processes.mjs';

const EXAMPLE = resolve(dirname(fileURLToPath(import.meta.url)), '../../policies');
const TOOLS = 'policies/notes.tools.json';
const CASES = 'notes.cases.yaml';
const TYPO_FILE = 'notes-tools.cedar';
const ACTION = 'Mcp::Action::"delete_note"';
const TYPO = 'Mcp::Action::"delete_nte"';

/**
 * @typedef {{ cases: number, flipped: string, typo: string }} PolicyExpectations
 *   cases: how many the cases file has; flipped: the name of the case whose expectation the
 *   broken copy flips; typo: `file:line:col` of the typo'd action, as Cedar reports it
 */

/** `file:line:col` (1-based) of `offset` in `text`. */
function location(file, text, offset) {
  const line = text.slice(0, offset).split('\n').length;
  return `${file}:${line}:${offset - text.lastIndexOf('\n', offset - 1)}`;
}

/** The policy file with its first `delete_note` action misspelt, and where that is. */
function typoPolicy(text) {
  const offset = text.indexOf(ACTION);
  if (offset < 0) throw new CheckError(`${TYPO_FILE} names no ${ACTION} to misspell`);
  const broken = `${text.slice(0, offset)}${TYPO}${text.slice(offset + ACTION.length)}`;
  return { broken, typo: location(TYPO_FILE, text, offset) };
}

/**
 * The cases file with its first allow/deny expectation turned round (an `ask` has an approver
 * too, so flipping it would fail for two reasons), the name of that case, and the case count.
 * Only that value's characters change, so the rest of the file stays as written.
 */
function flipCase(text) {
  const doc = parseDocument(text);
  const cases = /** @type {{ name: string, expect: string }[]} */ (doc.toJS());
  const index = cases.findIndex((entry) => entry.expect === 'allow' || entry.expect === 'deny');
  const value = /** @type {import('yaml').Scalar | undefined} */ (
    index < 0 ? undefined : doc.getIn([index, 'expect'], true)
  );
  if (!value?.range) throw new CheckError(`${CASES} has no allow or deny case to flip`);
  const [start, end] = value.range;
  const flippedTo = cases[index].expect === 'allow' ? 'deny' : 'allow';
  const broken = `${text.slice(0, start)}${flippedTo}${text.slice(end)}`;
  return { broken, flipped: cases[index].name, cases: cases.length };
}

/**
 * Copies the worked example into the app (policies/, policies-broken/); returns what the
 * command must report on it.
 * @returns {PolicyExpectations}
 */
export function layOutPolicies(dir) {
  const whole = join(dir, 'policies');
  const broken = join(dir, 'policies-broken');
  mkdirSync(whole, { recursive: true });
  mkdirSync(broken, { recursive: true });
  // The folder's own files: the set the command reads (policies/integrations/ is the notes
  // service's optional rule, not part of it).
  const files = readdirSync(EXAMPLE, { withFileTypes: true }).filter((entry) => entry.isFile());
  for (const { name: file } of files) {
    copyFileSync(join(EXAMPLE, file), join(whole, file));
    if (file.endsWith('.cedar')) copyFileSync(join(EXAMPLE, file), join(broken, file));
  }
  const policy = typoPolicy(readFileSync(join(EXAMPLE, TYPO_FILE), 'utf8'));
  writeFileSync(join(broken, TYPO_FILE), policy.broken);
  const cases = flipCase(readFileSync(join(EXAMPLE, CASES), 'utf8'));
  writeFileSync(join(broken, CASES), cases.broken);
  return { cases: cases.cases, flipped: cases.flipped, typo: policy.typo };
}

/**
 * Runs `mcp-warden policy …` in the app's folder (the bin's `#!/usr/bin/env node` takes the
 * Node first on the step's PATH) and fails unless it exits `status` with each of `includes`
 * in its output and, when given, its output ending with `endsWith`.
 * @param {{ status: number, includes?: string[], endsWith?: string }} expect
 */
async function warden(dir, env, args, { status, includes = [], endsWith }) {
  const bin = join(dir, 'node_modules/.bin/mcp-warden');
  const { code, stdout, stderr } = await runToEnd(bin, ['policy', ...args], { cwd: dir, env });
  const output = `${stdout}${stderr}`;
  const shown = `mcp-warden policy ${args.join(' ')}`;
  if (code !== status) throw new CheckError(`${shown} exited ${code}, expected ${status}`, output);
  checkNoWarnings(shown, stderr);
  const lacked = includes.find((text) => !output.includes(text));
  if (lacked !== undefined) {
    throw new CheckError(`${shown}: no \`${lacked}\` in its output`, output);
  }
  if (endsWith !== undefined && !stdout.trimEnd().endsWith(endsWith)) {
    throw new CheckError(`${shown}: its output does not end with \`${endsWith}\``, output);
  }
}

/**
 * The worked example through the installed command: the schema, validation and the cases
 * pass; the typo'd policy and the flipped case each exit 1 and are named.
 * @param {PolicyExpectations} expected
 */
export async function checkPolicyCli(dir, env, expected) {
  const tools = ['--tools', TOOLS];
  const cases = ['--cases', `policies/${CASES}`];
  await warden(dir, env, ['schema', ...tools], {
    status: 0,
    includes: ['namespace Mcp', 'action "delete_note"'],
  });
  await warden(dir, env, ['validate', 'policies', ...tools], {
    status: 0,
    includes: ['valid: policy set'],
  });
  await warden(dir, env, ['test', 'policies', ...tools, ...cases], {
    status: 0,
    endsWith: `${expected.cases} passed, 0 failed`,
  });
  // Each broken copy on its own, so that the one failure is the one the output must name.
  await warden(dir, env, ['test', 'policies-broken', ...tools, ...cases], {
    status: 1,
    includes: [expected.typo, 'the policies do not validate'],
  });
  await warden(dir, env, ['test', 'policies', ...tools, '--cases', `policies-broken/${CASES}`], {
    status: 1,
    includes: [`✗ ${expected.flipped}:`],
    endsWith: `${expected.cases - 1} passed, 1 failed`,
  });
}
