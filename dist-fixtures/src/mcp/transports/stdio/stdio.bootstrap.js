import { NestFactory } from '@nestjs/core';
import { McpServer } from '../../server/mcp.server.js';
import { StderrLogger } from './stderr.logger.js';
import { McpStdioTransport } from './stdio.transport.js';
/**
 * Boots `module` as an application context (no HTTP server), logging to
 * stderr, and serves MCP over stdin/stdout until stdin ends or SIGTERM/SIGINT
 * arrives; in-flight calls finish before the app closes.
 *
 * @example
 * await serveStdio(AppModule.forStdio());
 */
export async function serveStdio(module, options = {}) {
    const app = await NestFactory.createApplicationContext(module, {
        logger: new StderrLogger('Nest'),
    });
    const transport = new McpStdioTransport(app.get(McpServer), options);
    const stop = () => transport.stop();
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    try {
        await transport.run();
    }
    finally {
        process.off('SIGTERM', stop);
        process.off('SIGINT', stop);
        await app.close();
    }
}
//# sourceMappingURL=stdio.bootstrap.js.map