// What a synced write costs on this machine: the JSON Lines sink's kind of write (a file opened
// with O_DSYNC, appended to by a write that returns once its data is on disk) by size, one at a
// time as the sink writes, and two at once (at offsets of their own). Prints each write's mean
// latency and the kernel and user CPU it took, beside a plain write of the same size.
//
//   node bench/synced-writes.mjs [--seconds 2] [--sizes 1000,17000,65000]
//
// Under `audit.failClosed` a call waits for such a write, and each one's CPU competes with the
// event loop for the cores (docs/audit.md, "Performance").
import { closeSync, constants, mkdtempSync, openSync, rmSync, write } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: flags } = parseArgs({
  options: {
    seconds: { type: 'string', default: '2' },
    sizes: { type: 'string', default: '1000,17000,65000' },
  },
});
const SECONDS = Number(flags.seconds);
const dir = mkdtempSync(join(process.env.WARDEN_AUDIT_ROOT ?? tmpdir(), 'mcp-warden-synced-'));

/* `inFlight` writes of `size` bytes kept going for SECONDS; each at its own offset. */
function measure(size, inFlight, synced) {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC;
  const fd = openSync(join(dir, 'f'), synced ? flags | constants.O_DSYNC : flags);
  const data = Buffer.alloc(size, 0x61);
  let offset = 0;
  let writes = 0;
  let waited = 0;
  const cpu = process.cpuUsage();
  const end = performance.now() + SECONDS * 1000;
  return new Promise((resolve, reject) => {
    let running = inFlight;
    const next = () => {
      if (performance.now() > end) {
        if (--running === 0) {
          const used = process.cpuUsage(cpu);
          closeSync(fd);
          resolve({ writes, waited, used });
        }
        return;
      }
      const at = offset;
      offset += size;
      const started = performance.now();
      write(fd, data, 0, size, at, (error) => {
        if (error) return reject(error);
        writes++;
        waited += performance.now() - started;
        next();
      });
    };
    for (let i = 0; i < inFlight; i++) next();
  });
}

try {
  console.log(
    '| write | size (bytes) | at once | writes/s | latency (ms) | kernel CPU (µs/write) | user CPU (µs/write) |',
  );
  console.log('| --- | --: | --: | --: | --: | --: | --: |');
  for (const size of flags.sizes.split(',').map(Number)) {
    for (const [synced, inFlight] of [
      [false, 1],
      [true, 1],
      [true, 2],
    ]) {
      const { writes, waited, used } = await measure(size, inFlight, synced);
      console.log(
        `| ${synced ? 'O_DSYNC' : 'plain'} | ${size} | ${inFlight} | ${Math.round(writes / SECONDS)} | ` +
          `${(waited / writes).toFixed(3)} | ${Math.round(used.system / writes)} | ${Math.round(used.user / writes)} |`,
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
