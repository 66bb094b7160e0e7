import 'reflect-metadata';
import { principalFromEnv, serveStdio } from '../index.js';
import { AppModule } from './app.module.js';
import { ServiceLogger } from './logging/service.logger.js';
import { exitWhenWritten, exitWithReason } from './logging/stderr-lines.js';

/*
 * The notes service over stdio: protocol on stdout, every log line on stderr.
 * A boot refusal (or any startup error) exits non-zero with its reason. The
 * caller is who MCP_PRINCIPAL_SUBJECT / MCP_PRINCIPAL_SCOPES say (stdio has
 * no credentials: the operator who starts the process vouches for it).
 */
serveStdio(AppModule.forTransport('stdio'), {
  principal: principalFromEnv(),
  logger: new ServiceLogger(),
}).then(() => exitWhenWritten(0), exitWithReason);
