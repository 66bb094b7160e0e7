import { Inject, Injectable, Module, type Provider } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Authorizers } from './authorization/authorizers.js';
import { McpModule } from './mcp.module.js';
import { MCP_MODULE_OPTIONS } from './mcp.module-definition.js';
import type { McpModuleOptions } from './options/mcp-options.interface.js';
import { McpRegistry } from './definitions/mcp-registry.service.js';
import { McpWarden } from './engine/mcp-warden.service.js';
import { initializeParams } from '../../test/support/http-app.js';

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
      params: initializeParams(),
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

describe('McpModule wiring', () => {
  it('isGlobal: false boots, and the importing module injects McpWarden', async () => {
    @Injectable()
    class Feature {
      constructor(readonly server: McpWarden) {}
    }
    @Module({
      imports: [McpModule.forRoot({ name: 's', version: '1', isGlobal: false })],
      providers: [Feature],
    })
    class AppModule {}
    const app = await boot([AppModule]);
    expect(app.get(Feature).server).toBeInstanceOf(McpWarden);
    await app.close();
  });

  it("forRootAsync with transport: 'http' beside the factory mounts the HTTP routes", async () => {
    const app = await boot([
      McpModule.forRootAsync({
        transport: 'http',
        useFactory: () => ({
          name: 'a',
          version: '1',
          transport: 'http' as const,
          http: { path: '/rpc' },
          // This spec is about mounting; the boot check (armed by default) has its own suite.
          requireAuthorization: false,
        }),
      }),
    ]);
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    const response = await fetch(`http://127.0.0.1:${port}/rpc`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: initializeParams(),
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeTruthy();
    await app.close();
  });

  it("forRootAsync whose factory says transport 'http' without mounting it fails boot, saying how", async () => {
    const failure = await bootError([
      McpModule.forRootAsync({
        useFactory: () => ({ name: 'a', version: '1', transport: 'http' as const }),
      }),
    ]);
    expect(failure.message).toMatch(/HTTP routes are not mounted/);
    expect(failure.message).toMatch(/forRootAsync\(\{ transport: 'http'/);
  });

  it('a second McpModule.forRoot with the same name fails boot, naming it', async () => {
    @Module({ imports: [McpModule.forRoot({ name: 'same', version: '1', isGlobal: false })] })
    class FeatureModule {}
    const failure = await bootError([
      McpModule.forRoot({ name: 'same', version: '1' }),
      FeatureModule,
    ]);
    expect(failure.message).toMatch(/two servers are named 'same'/);
  });

  it('DI errors name readable tokens', async () => {
    @Injectable()
    class NeedsOptions {
      constructor(@Inject(MCP_MODULE_OPTIONS) readonly options: object) {}
    }
    const failure = await bootError([], [NeedsOptions]);
    expect(String(MCP_MODULE_OPTIONS)).toBe('MCP_WARDEN_MODULE_OPTIONS');
    expect(failure.message).toContain('MCP_WARDEN_MODULE_OPTIONS');
  });
});

async function bootError(imports: unknown[], providers: Provider[] = []): Promise<Error> {
  try {
    const moduleRef = await Test.createTestingModule({
      imports: imports as never[],
      providers,
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    try {
      await app.init();
    } finally {
      await app.close().catch(() => undefined);
    }
  } catch (error) {
    return error as Error;
  }
  throw new Error('boot succeeded but was expected to fail');
}
