// Starts a server script as its own process and waits for the URL it prints on stdout.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export function startServer(script, env = {}) {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (url) =>
      resolve({ url: url.trim(), pid: child.pid, stop: () => child.kill('SIGTERM') }),
    );
    child.once('exit', (code) =>
      reject(new Error(`${script} exited with ${code} before printing its URL`)),
    );
  });
}
