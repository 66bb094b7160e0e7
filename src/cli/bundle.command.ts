import { parseArgs } from 'node:util';
import { bundleServer } from './bundle/bundle-server.js';

export const BUNDLE_USAGE = `Usage:
  mcp-warden bundle --entry <dist/main.js> --out <dist/bundle> [--transport http|stdio]
                    [--name <base name>] [--no-minify] [--preload-cedar]

Bundles a built server entry into one file and a launcher that turns on Node's compile cache:
start it with \`node <out>/<name>.mjs\`. Needs esbuild (npm install --save-dev esbuild).
--preload-cedar: the app's policy is McpPolicies.cedar(); the launcher starts compiling the
Cedar engine before the bundle loads.
`;

/**
 * `mcp-warden bundle`: the fast start of docs/stdio.md ("Cold start") for an app's own entry.
 * Returns the exit status: 0 bundled, 1 failed, 2 a usage error.
 */
export async function runBundleCommand(
  argv: readonly string[],
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        entry: { type: 'string' },
        out: { type: 'string' },
        transport: { type: 'string' },
        name: { type: 'string' },
        'no-minify': { type: 'boolean' },
        'preload-cedar': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    err(`mcp-warden: ${(error as Error).message}`);
    err(BUNDLE_USAGE);
    return 2;
  }
  if (values.help) {
    out(BUNDLE_USAGE);
    return 0;
  }
  const transport = values.transport ?? 'http';
  if (!values.entry || !values.out || (transport !== 'http' && transport !== 'stdio')) {
    err(BUNDLE_USAGE);
    return 2;
  }
  try {
    const bundled = await bundleServer({
      entry: values.entry,
      outDir: values.out,
      transport,
      name: values.name,
      minify: !values['no-minify'],
      preloadCedar: values['preload-cedar'],
    });
    out(
      `bundled ${values.entry} → ${bundled.launcher} (${Math.round(bundled.bytes / 1024)} KiB); ` +
        `start it with: node ${bundled.launcher}`,
    );
    return 0;
  } catch (error) {
    err(`mcp-warden: ${(error as Error)?.message ?? String(error)}`);
    return 1;
  }
}
