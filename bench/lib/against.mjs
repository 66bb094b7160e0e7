// `--against <git ref>`: the same servers built from another commit, measured in the same run.
// The ref is checked out in a temporary git worktree and built there (`npm run build`); its
// node_modules is the current one when the two lockfiles are the same, else its own `npm ci`.
// Each Warden and notes-service row gets a twin, `<id>@against`, that runs the worktree's copy of
// the same script, interleaved with the current rows; every table then shows each row against
// its twin (`vs <ref>`). Baselines (bare Node, the SDK servers) are not doubled. A twin carries
// its tree (`root`), so a workload that runs more than the row's script (the soak, the console
// fixture, the bundler) runs the ref's own; where the ref lacks it, the twin sits out, said so.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import { join, relative } from 'node:path';

/** The suffix of a twin's id. */
export const AGAINST = '@against';

/**
 * Checks out and builds `ref` (with `fixtures`, its test fixtures too, where it has
 * `build:fixtures`); returns its directory, its short commit and a cleanup (safe to call twice).
 */
export function prepareAgainst(ref, root, log, { fixtures = false } = {}) {
  const git = (...args) => execFileSync('git', args, { cwd: root }).toString().trim();
  const commit = git('rev-parse', '--short', `${ref}^{commit}`);
  const dir = mkdtempSync(join(os.tmpdir(), `mcp-warden-bench-${commit}-`));
  let cleaned = false;
  const cleanup = () => {
    if (cleaned) return;
    cleaned = true;
    try {
      git('worktree', 'remove', '--force', dir);
    } catch {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    log(`--against ${ref}: checking out ${commit} in ${dir}`);
    git('worktree', 'add', '--detach', dir, commit);
    const lock = (at) => readFileSync(join(at, 'package-lock.json'), 'utf8');
    const run = (command, args) =>
      execFileSync(command, args, { cwd: dir, stdio: ['ignore', 2, 2] });
    if (lock(dir) === lock(root)) {
      symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    } else {
      log(`--against ${ref}: its lockfile differs, installing its own dependencies`);
      run('npm', ['ci', '--no-audit', '--no-fund']);
    }
    log(`--against ${ref}: building`);
    run('npm', ['run', '--silent', 'build']);
    const scripts = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts ?? {};
    if (fixtures && scripts['build:fixtures']) {
      log(`--against ${ref}: building its test fixtures`);
      run('npm', ['run', '--silent', 'build:fixtures']);
    }
    return { dir, commit, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}

/**
 * The twins of the rows that run this repository's code (the Warden servers and the notes
 * service), pointed at `dir`. A twin that keeps data gets a data directory of its own, since
 * the two commits may store notes differently.
 */
export function twinsOf(servers, root, dir, ref) {
  const moved = (path) => (path ? join(dir, relative(root, path)) : path);
  return (
    servers
      // Our own code only: the SDK servers and bare Node are the same at any ref.
      .filter((server) => /^(warden|service)-/.test(server.id) && server.script.startsWith(root))
      .map((server) => {
        const env = { ...server.env };
        if (env.DATA_DIR) {
          env.DATA_DIR = `${env.DATA_DIR}${AGAINST}`;
          mkdirSync(env.DATA_DIR, { recursive: true });
        }
        return {
          ...server,
          id: `${server.id}${AGAINST}`,
          label: `${server.label} @ ${ref}`,
          twinOf: server.id,
          root: dir,
          script: moved(server.script),
          bundle: moved(server.bundle),
          env,
        };
      })
  );
}
