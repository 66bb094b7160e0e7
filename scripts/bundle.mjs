// @ts-check
// `npm run build` ends here: the service's two entry points, built by tsc into dist/app/, bundled
// into dist/bundle/ (main.mjs for HTTP, main-stdio.mjs for stdio) with their launchers. The
// library itself is published unbundled (an app bundles it with its own code: `mcp-warden bundle`,
// see docs/stdio.md, "Cold start"); this is the same bundler, as tsc built it into dist/cli/.
import { fileURLToPath } from 'node:url';
import { bundleServer } from '../dist/cli/bundle/bundle-server.js';

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);
/** @type {[string, 'http' | 'stdio'][]} */
const ENTRIES = [
  ['dist/app/main.js', 'http'],
  ['dist/app/main-stdio.js', 'stdio'],
];
for (const [entry, transport] of ENTRIES) {
  // The service decides with Cedar (src/app/policy): its launchers start compiling the engine.
  const { launcher, bytes } = await bundleServer({
    entry,
    outDir: 'dist/bundle',
    transport,
    preloadCedar: true,
  });
  // On stderr, as every log line of the service's: stdout may be an MCP client's protocol pipe.
  process.stderr.write(`bundled ${entry} → ${launcher} (${Math.round(bytes / 1024)} KiB)\n`);
}
