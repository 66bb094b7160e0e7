import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { McpModule, serveStdio } from 'mcp-warden';
import { AddTools } from './add.tools.js';
import { mcpOptions } from './mcp-options.js';

/*
 * The same tool served over stdio, as a desktop client starts it: the pack check bundles this
 * entry with `mcp-warden bundle --transport stdio` and drives one tools/call through the bundle.
 */
@Module({
  imports: [McpModule.forRoot({ ...mcpOptions(), transport: 'stdio' })],
  providers: [AddTools],
})
class StdioAppModule {}

serveStdio(StdioAppModule).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  },
);
