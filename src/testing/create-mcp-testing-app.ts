import type { INestApplication, ModuleMetadata, NestApplicationOptions } from '@nestjs/common';

/**
 * Compiles a testing module from `metadata` and initializes it as an app
 * (logger off unless `options` say otherwise), ready for
 * `McpTestClient.connect()`. Close it with `app.close()`. For overrides
 * (`overrideProvider` and friends) use `Test.createTestingModule` directly.
 *
 * `@nestjs/testing` is loaded only when this is called, so importing
 * `mcp-warden/testing` does not require it.
 *
 * @example
 * const app = await createMcpTestingApp({
 *   imports: [McpModule.forRoot({ name: 'notes', version: '1.0.0', authorizer })],
 *   providers: [NotesTools],
 * });
 * const client = await McpTestClient.connect(app);
 */
export async function createMcpTestingApp(
  metadata: ModuleMetadata,
  options: NestApplicationOptions = {},
): Promise<INestApplication> {
  const { Test } = await import('@nestjs/testing');
  const moduleRef = await Test.createTestingModule(metadata).compile();
  const app = moduleRef.createNestApplication({ logger: false, ...options });
  await app.init();
  return app;
}
