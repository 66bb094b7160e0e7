import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Authorizers } from './authorizer/authorizers.js';
import { McpModule } from './mcp.module.js';
import { MCP_MODULE_OPTIONS } from './mcp.module-definition.js';
import type { McpModuleOptions } from './options/mcp-options.interface.js';
import { McpRegistry } from './registry/mcp-registry.service.js';
import { McpWarden } from './server/mcp-warden.service.js';

@Injectable()
class PolicyConfig {
  readonly authorizer = Authorizers.allowAll();
}

@Module({ providers: [PolicyConfig], exports: [PolicyConfig] })
class PolicyModule {}

async function boot(imports: unknown[]) {
  const moduleRef = await Test.createTestingModule({ imports: imports as never[] }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  return app;
}

describe('McpModule', () => {
  it('forRoot exposes the server, the registry and the options', async () => {
    const app = await boot([McpModule.forRoot({ name: 's', version: '1' })]);
    expect(app.get(McpWarden)).toBeInstanceOf(McpWarden);
    expect(app.get(McpRegistry)).toBeInstanceOf(McpRegistry);
    expect(app.get<McpModuleOptions>(MCP_MODULE_OPTIONS).name).toBe('s');
    // Defaults: no authorizer, default source → not configured.
    expect(app.get(McpWarden).authorizationConfigured()).toBe(false);
    expect(app.get(McpWarden).readAuthorizationConfigured()).toBe(false);
    await app.close();
  });

  it('forRootAsync builds the options from injected providers', async () => {
    const app = await boot([
      McpModule.forRootAsync({
        imports: [PolicyModule],
        inject: [PolicyConfig],
        useFactory: (policy: PolicyConfig) => ({
          name: 'async',
          version: '2',
          authorizer: policy.authorizer,
          authorizerSource: 'configured' as const,
          readAuthorizer: policy.authorizer,
        }),
      }),
    ]);
    const server = app.get(McpWarden);
    expect(server.authorizationConfigured()).toBe(true);
    expect(server.readAuthorizationConfigured()).toBe(true);
    const reply = (await server.handleMessage({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
      },
    })) as { result: { serverInfo: object } };
    expect(reply.result.serverInfo).toEqual({ name: 'async', version: '2' });
    await app.close();
  });

  it('is global: a feature module injects McpWarden without importing McpModule', async () => {
    @Injectable()
    class Feature {
      constructor(readonly server: McpWarden) {}
    }
    @Module({ providers: [Feature], exports: [Feature] })
    class FeatureModule {}
    const app = await boot([McpModule.forRoot({ name: 's', version: '1' }), FeatureModule]);
    expect(app.get(Feature).server).toBe(app.get(McpWarden));
    await app.close();
  });
});
