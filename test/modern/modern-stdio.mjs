// The stdio app of test/modern/stdio-modern.e2e-spec.ts, served with serveStdio from the built
// framework (`npm run build` first). Plain JS, so the suite can spawn it without a compile step.
// Both seams allow everything, so what the suite sees is the framework's own behaviour.
//
//   touch   announces notifications/resources/updated for its `uri` argument
//
// Its shutdown hooks ran when stderr ends with "modern-stdio: shut down".
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { Authorizers, McpModule, McpRegistry, McpWarden, serveStdio } from '../../dist/index.js';

function registerTools(registry, warden) {
  registry.registerTool({
    name: 'touch',
    description: 'Announces that the resource at uri changed',
    inputSchema: { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] },
    handler: ({ uri }) => {
      warden.notify('notifications/resources/updated', { uri });
      return `touched ${uri}`;
    },
  });
  return true;
}

/* Says on stderr that the application context was closed (its shutdown hooks ran). */
class ShutdownProbe {
  onApplicationShutdown() {
    process.stderr.write('modern-stdio: shut down\n');
  }
}

class ModernStdioModule {}
Module({
  imports: [
    McpModule.forRoot({
      name: 'modern-stdio',
      version: '1.0.0',
      transport: 'stdio',
      authorizer: Authorizers.allowAll(),
      authorizerSource: 'configured',
      readAuthorizer: Authorizers.allowAll(),
    }),
  ],
  providers: [
    ShutdownProbe,
    { provide: 'modern-tools', useFactory: registerTools, inject: [McpRegistry, McpWarden] },
  ],
})(ModernStdioModule);

serveStdio(ModernStdioModule).then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`modern-stdio: ${error?.stack ?? error}\n`);
    process.exit(1);
  },
);
