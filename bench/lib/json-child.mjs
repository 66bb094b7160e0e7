// A measuring script run to its end in a child process of its own: its report is the JSON of
// its last stdout line. Used by the workloads whose subject starts its own servers (the soak,
// the operator console's fixture).
import { spawn } from 'node:child_process';

/**
 * Runs `node <script> ...args` (no NODE_OPTIONS) and resolves with its last stdout line parsed;
 * rejects, with the end of its stderr, when it exits non-zero or prints no JSON.
 */
export function runJsonChild(script, args, label) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: { ...process.env, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`${label} exited ${code}: ${stderr.slice(-2000)}`));
      try {
        resolve(JSON.parse(stdout.trim().split('\n').pop() ?? ''));
      } catch (error) {
        reject(
          new Error(`${label} printed no JSON report: ${stdout.slice(-500)}`, { cause: error }),
        );
      }
    });
  });
}
