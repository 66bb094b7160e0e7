// MCP Warden over stdio (serveStdio), exposing `echo` (and `guarded_echo`) behind configured
// seams: protocol on stdout, logs on stderr.
import { serveStdio } from '../../dist/index.js';
import { wardenBenchModule } from './warden-app.mjs';

serveStdio(wardenBenchModule('stdio')).then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`warden-stdio: ${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
