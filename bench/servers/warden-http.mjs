// MCP Warden over Streamable HTTP, exposing `echo` behind configured seams.
// Prints its URL on stdout. PORT=0 picks a free port.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Authorizers, McpModule, McpRegistry } from '../../dist/index.js';

const app = await NestFactory.create(
  McpModule.forRoot({
    name: 'warden-echo',
    version: '1.0.0',
    transport: 'http',
    authorizer: Authorizers.allowlist(['echo']),
    authorizerSource: 'configured',
    readAuthorizer: Authorizers.allowAll(),
  }),
  { bodyParser: false, logger: ['error'] },
);
app.get(McpRegistry).registerTool({
  name: 'echo',
  description: 'Echo the text',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  handler: ({ text }) => String(text),
});
await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.stdout.write(`http://127.0.0.1:${app.getHttpServer().address().port}/mcp\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
