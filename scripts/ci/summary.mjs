#!/usr/bin/env node
/*
 * CI's closing count: one plain line, "N passed, N failed", from what each stage of .ci/run
 * left behind.
 *
 *   node scripts/ci/summary.mjs --check NAME=STATUS ... --jest FILE=STATUS ...
 *     --conformance FILE=STATUS ... --pack FILE=STATUS
 *
 * - --check: a stage that counts as one check (lint, the tools install, the bench smoke run,
 *   the quick-start smoke): passed when its exit status is 0.
 * - --jest: a jest --json results file: its passed and failed tests, plus suites that failed to
 *   run and skipped or todo tests (nothing may be skipped in CI); one failure when the file is missing or unreadable (the run did not happen), and one
 *   more when jest exited non-zero with no failure to show for it.
 * - --conformance: a conformance run's log: its last "Total: N passed, N failed" line (scored
 *   checks); one failure without one, and one more when the run failed with no failed check.
 * - --pack: the pack check's results JSON: one check per scratch app, one failure for a bad
 *   tarball, one when there are no apps, one when it failed with every part passing.
 *
 * A status is an exit code. Every input counts: nothing missing can pass.
 */
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

/** Reads a file as text, or undefined when it is not there. */
function readText(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One jest --json results file → counts. */
export function countJest(text, status) {
  const results = text === undefined ? undefined : parseJson(text);
  if (!results || typeof results.numPassedTests !== 'number') return { passed: 0, failed: 1 };
  // A skipped or todo test is a failure here: in CI every suite must run (the gates turn a
  // missing service into a failing test), so a skip can only be one left in by mistake.
  const failed =
    results.numFailedTests +
    (results.numRuntimeErrorTestSuites ?? 0) +
    (results.numPendingTests ?? 0) +
    (results.numTodoTests ?? 0);
  return {
    passed: results.numPassedTests,
    failed: failed + (status !== 0 && failed === 0 ? 1 : 0),
  };
}

/** One conformance log → counts from its last Total line. */
export function countConformance(text, status) {
  const totals = [...(text ?? '').matchAll(/^Total: (\d+) passed, (\d+) failed/gm)].pop();
  if (!totals) return { passed: 0, failed: 1 + (status !== 0 ? 1 : 0) };
  const [passed, failed] = [Number(totals[1]), Number(totals[2])];
  return { passed, failed: failed + (status !== 0 && failed === 0 ? 1 : 0) };
}

/** The pack check's results JSON → one check per app, and the tarball's own check. */
export function countPack(text, status) {
  const results = text === undefined ? undefined : parseJson(text);
  if (!results || !Array.isArray(results.apps) || results.apps.length === 0) {
    return { passed: 0, failed: 1 };
  }
  let passed = 0;
  let failed = 0;
  for (const app of results.apps)
    if (app.ok) passed += 1;
    else failed += 1;
  if (!results.tarball?.ok) failed += 1;
  if (status !== 0 && failed === 0) failed += 1;
  return { passed, failed };
}

/** One line per app of the pack check's results, so the summary names the whole matrix. */
export function packAppLines(text) {
  const results = text === undefined ? undefined : parseJson(text);
  const apps = Array.isArray(results?.apps) ? results.apps : [];
  return apps.map((app) => `pack app ${app.name ?? '(unnamed)'}: ${app.ok ? 'ok' : 'FAIL'}`);
}

/**
 * The whole count. `inputs` lists `{ kind, name, status }`, kind one of check, jest,
 * conformance, pack (name: the file for all but check); `read(file)` gives a file's text or
 * undefined. Returns the totals and one line per input saying what it added.
 */
export function summarize(inputs, read = readText) {
  let passed = 0;
  let failed = 0;
  const lines = [];
  for (const { kind, name, status } of inputs) {
    let counts;
    if (kind === 'check')
      counts = status === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };
    else if (kind === 'jest') counts = countJest(read(name), status);
    else if (kind === 'conformance') counts = countConformance(read(name), status);
    else if (kind === 'pack') counts = countPack(read(name), status);
    else throw new Error(`unknown kind of input: ${kind}`);
    passed += counts.passed;
    failed += counts.failed;
    lines.push(
      `${kind} ${name} (exit ${status}): ${counts.passed} passed, ${counts.failed} failed`,
    );
    if (kind === 'pack') lines.push(...packAppLines(read(name)));
  }
  return { passed, failed, lines };
}

/** `--kind NAME=STATUS` pairs → inputs; throws on anything else. */
export function parseArgs(argv) {
  const inputs = [];
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i];
    const value = argv[i + 1];
    const kind = /^--(check|jest|conformance|pack)$/.exec(flag ?? '')?.[1];
    const at = value?.lastIndexOf('=') ?? -1;
    if (!kind || at <= 0 || !/^\d+$/.test(value.slice(at + 1))) {
      throw new Error(
        `expected --check|--jest|--conformance|--pack NAME=STATUS, got ${flag} ${value}`,
      );
    }
    inputs.push({ kind, name: value.slice(0, at), status: Number(value.slice(at + 1)) });
  }
  return inputs;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let inputs;
  try {
    inputs = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`summary: ${error.message}`);
    process.stdout.write('0 passed, 1 failed\n');
    process.exit(2);
  }
  const { passed, failed, lines } = summarize(inputs);
  for (const line of lines) process.stdout.write(`summary: ${line}\n`);
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
}
