// Starts a peer server the way the bundled Warden rows start: Node's compile cache on (Node
// 22.1+; a no-op before) before the server's module is compiled, and written once it has been
// evaluated (Node 22.10+). The cold-start rows run the official SDK servers and bare Node through
// it, so every row has the same advantage (bench/workloads/cold-start.mjs).
//   node compile-cache-launcher.mjs <server.mjs>
import module from 'node:module';
import { resolve } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

module.enableCompileCache?.();
const [script] = process.argv.splice(2, 1);
await import(pathToFileURL(resolve(script)).href);
module.flushCompileCache?.();
