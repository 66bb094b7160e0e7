import 'reflect-metadata';
import { serveStdio } from '../index.js';
import { AppModule } from './app.module.js';
/*
 * The notes service over stdio: protocol on stdout, every log line on stderr.
 * A boot refusal (or any startup error) exits non-zero with its reason.
 */
serveStdio(AppModule.forTransport('stdio')).then(() => process.exit(0), (error) => {
    process.stderr.write(`mcp-warden: ${error?.message ?? String(error)}\n`);
    process.exit(1);
});
//# sourceMappingURL=main-stdio.js.map