// @ts-check
/*
 * Starts a stdio entry of a scratch app (its `mcp-warden bundle --transport stdio` launcher) on
 * one Node and drives it as a desktop client does: initialize, initialized and one tools/call on
 * stdin, the answers on stdout; then stdin ends and the process must exit 0.
 */
import { spawn } from 'node:child_process';
import { clearTimeout, setTimeout } from 'node:timers';
import { CheckError, childEnv, children } from './processes.mjs';

const TIMEOUT_MS = 30_000;
const lines = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'pack-check', version: '1.0.0' },
    },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  {
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'add', arguments: { a: 2, b: 3 } },
  },
];

/** Drives `entry` over stdio; resolves with its stderr (checked for warnings by the caller). */
export function driveStdioApp(dir, node, entry) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(node, [entry], { cwd: dir, env: childEnv(), stdio: 'pipe' });
    children.add(child);
    let stdout = '';
    let stderr = '';
    let answered = false;
    const fail = (message) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new CheckError(message, `${stdout}${stderr}`));
    };
    const timer = setTimeout(() => fail('no tools/call answer over stdio in time'), TIMEOUT_MS);
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      // Whole lines only: the last piece may be half a message.
      const call = stdout
        .split('\n')
        .slice(0, -1)
        .filter((line) => line.trim())
        .map((line) => JSON.parse(line))
        .find((message) => message.id === 2);
      if (!call || answered) return;
      answered = true;
      if (call.result?.structuredContent?.sum !== 5) return fail('tools/call over stdio');
      child.stdin.end();
    });
    child.on('exit', (code) => {
      children.delete(child);
      clearTimeout(timer);
      if (!answered) reject(new CheckError(`the stdio app exited (${code}) unanswered`, stderr));
      else if (code !== 0) reject(new CheckError(`the stdio app exited ${code}`, stderr));
      else resolvePromise(stderr);
    });
    child.stdin.write(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  });
}
