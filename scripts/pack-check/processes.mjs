// @ts-check
/* The pack check's child processes: run to the end under a deadline, all killed on a signal. */
import { spawn } from 'node:child_process';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';

export const STEP_TIMEOUT_MS = 120_000;

/** A failed step, with the output that explains it. */
export class CheckError extends Error {
  constructor(message, output = '') {
    super(message);
    this.output = output;
  }
}

/** @type {Set<import('node:child_process').ChildProcess>} */
export const children = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const child of children) child.kill('SIGKILL');
    process.exit(1);
  });
}

/** The environment the apps and their installs run in: without npm's or Node's options. */
export function childEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  for (const key of Object.keys(env)) if (/^npm_/i.test(key)) delete env[key];
  delete env.NODE_OPTIONS;
  return env;
}

/**
 * Runs a command to its end; resolves with its exit status and output (a step that expects a
 * failure checks the status itself), rejects on a timeout or a signal.
 */
export function runToEnd(command, args, { cwd, env = childEnv(), timeoutMs = STEP_TIMEOUT_MS }) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      children.delete(child);
      reject(new CheckError(`${command}: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      const output = `${stdout}${stderr}`;
      if (signal) reject(new CheckError(`${command} timed out or was killed (${signal})`, output));
      else resolvePromise({ code, stdout, stderr });
    });
  });
}

/** Runs a command to its end; rejects with its output on a non-zero exit or a timeout. */
export async function run(command, args, options) {
  const { code, stdout, stderr } = await runToEnd(command, args, options);
  if (code !== 0) {
    throw new CheckError(`${command} ${args.join(' ')} exited ${code}`, `${stdout}${stderr}`);
  }
  return { stdout, stderr };
}

/** Fails on a warning Node printed while a step ran (e.g. about loading ES modules). */
export function checkNoWarnings(step, stderr) {
  const warning = stderr.split('\n').find((line) => /Warning\b/.test(line));
  if (warning) throw new CheckError(`${step} printed a warning: ${warning.trim()}`, stderr);
}
