// Preloaded into every server process (node --import) so each, the service entry points included,
// can report its memory without code of its own: on SIGUSR2 it collects all garbage and writes
// process.memoryUsage() as one `bench-memory {...}` line on stderr. The gc function is obtained at
// that moment (v8.setFlagsFromString) rather than with --expose-gc, so the servers run with
// default flags. A collected heap is what makes per-session deltas comparable; the pause before
// the second collection lets V8 hand freed pages back, so RSS settles too.
import { setTimeout as sleep } from 'node:timers/promises';
import v8 from 'node:v8';
import vm from 'node:vm';

let gc;
const collectAll = () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });

process.on('SIGUSR2', async () => {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc');
  }
  gc();
  collectAll();
  await sleep(250);
  collectAll();
  process.stderr.write(`bench-memory ${JSON.stringify(process.memoryUsage())}\n`);
});
