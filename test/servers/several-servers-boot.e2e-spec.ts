import {
  Controller,
  Get,
  Injectable,
  Module,
  type DynamicModule,
  type INestApplication,
  type Provider,
} from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import {
  getMcpRegistryToken,
  InjectMcpRegistry,
  InjectMcpWarden,
  McpAuditSinks,
  MemoryTaskStore,
  McpHttpAuth,
  McpModule,
  McpRegistry,
  McpTool,
  McpWarden,
} from '../../src/index.js';
import { McpTestClient } from '../../src/testing/index.js';
import { bootOutcome } from '../support/boot-outcome.js';
import { HttpTestApp } from '../support/http-app.js';
import { MemoryApprovalStore } from '../../src/mcp/approvals/stores/memory-approval.store.js';
import { adminMcpModule, adminOptions, partnerOptions, PartnerTools } from './two-servers-app.js';

/*
 * How an app with several servers is wired (docs/several-servers.md): which server serves a
 * definition, how each is injected, reached and configured, and the boot refusals that keep
 * one server's things from landing on another.
 */

async function compile(imports: unknown[], providers: Provider[] = [], controllers: never[] = []) {
  const moduleRef = await Test.createTestingModule({
    imports: imports as never[],
    providers,
    controllers,
  }).compile();
  return moduleRef.createNestApplication({ logger: false });
}

/* Providers are built at compile, so a factory's refusal rejects there; the rest, at init. */
async function bootError(imports: unknown[], providers: Provider[] = []): Promise<string> {
  const app = await compile(imports, providers).catch((error: Error) => error);
  if (app instanceof Error) return app.message;
  const failure = await bootOutcome(app);
  if (!failure) throw new Error('app.init() resolved but was expected to reject');
  return failure.message;
}

const sharedApprovalStore = new MemoryApprovalStore({ maxPending: 10, maxPerCaller: 10 });
const sharedTaskStore = new MemoryTaskStore();

const admin = (extra = {}) => McpModule.forRoot(adminOptions(extra));
const partner = (extra = {}) => McpModule.forRoot(partnerOptions(extra));

async function toolsOf(app: INestApplication, server: string): Promise<string[]> {
  const client = await McpTestClient.connect(app, { server });
  const tools = await client.listTools();
  await client.close();
  return tools.map((tool) => tool.name).sort();
}

describe('several servers: which server serves a definition', () => {
  it('a name the app does not have fails boot, naming it and the servers it has', async () => {
    @Injectable()
    class Stray {
      @McpTool({ server: 'billing', description: 'Bill' })
      bill() {}
    }
    const message = await bootError([adminMcpModule(admin()), partner()], [Stray]);
    expect(message).toContain('Invalid MCP tool at Stray.bill');
    expect(message).toContain("server 'billing' is not a server of this app");
    expect(message).toContain("'admin', 'partner'");
  });

  it('with one server, a name other than its own fails boot too', async () => {
    @Injectable()
    class Misnamed {
      @McpTool({ server: 'partner', description: 'Quote' })
      quote() {}
    }
    expect(await bootError([admin()], [Misnamed])).toContain(
      "server 'partner' is not a server of this app (it has 'admin')",
    );
  });

  it('a provider whose module imports both servers must name its server', async () => {
    @Injectable()
    class Unnamed {
      @McpTool({ description: 'Ambiguous' })
      ambiguous() {}
    }
    const message = await bootError([admin(), partner()], [Unnamed]);
    expect(message).toContain('Invalid MCP tool at Unnamed.ambiguous');
    expect(message).toContain("its module imports servers 'admin', 'partner'");
    expect(message).toContain("server: '…'");
  });

  it('a provider whose module imports no server must name its server', async () => {
    @Injectable()
    class Elsewhere {
      @McpTool({ description: 'Nowhere' })
      nowhere() {}
    }
    @Module({ providers: [Elsewhere] })
    class FeatureModule {}
    expect(await bootError([admin(), partner(), FeatureModule])).toContain(
      'its module imports none of them',
    );
  });

  it('a provider belongs to the one server its module imports, and serves nowhere else', async () => {
    const app = await compile([adminMcpModule(admin()), partner()], [PartnerTools]);
    await app.init();
    expect(await toolsOf(app, 'admin')).toEqual(
      ['purge', 'refund', 'reset_counters', 'status', 'wipe'].sort(),
    );
    expect(await toolsOf(app, 'partner')).toEqual(['quote', 'status', 'wipe']);
    expect(app.get<McpRegistry>(getMcpRegistryToken('partner')).tool('refund')).toBeUndefined();
    await app.close();
  });

  it('a lone server keeps serving every definition, with no names anywhere', async () => {
    @Injectable()
    class Plain {
      @McpTool({ description: 'Plain' })
      plain() {
        return 'plain';
      }
    }
    const app = await compile([McpModule.forRoot({ name: 'solo', version: '1' })], [Plain]);
    await app.init();
    const client = await McpTestClient.connect(app);
    expect(await client.callTool('plain')).toMatchObject({ content: [{ text: 'plain' }] });
    await client.close();
    await app.close();
  });
});

describe('several servers: injection', () => {
  it('InjectMcpWarden and InjectMcpRegistry give each server by name', async () => {
    @Injectable()
    class Consumer {
      constructor(
        @InjectMcpWarden('admin') readonly admin: McpWarden,
        @InjectMcpWarden('partner') readonly partner: McpWarden,
        @InjectMcpRegistry('partner') readonly partnerRegistry: McpRegistry,
      ) {}
    }
    const app = await compile([adminMcpModule(admin()), partner()], [PartnerTools, Consumer]);
    await app.init();
    const consumer = app.get(Consumer);
    expect(consumer.admin).toBeInstanceOf(McpWarden);
    expect(consumer.partner).toBeInstanceOf(McpWarden);
    expect(consumer.admin).not.toBe(consumer.partner);
    expect(consumer.partnerRegistry.tool('quote')).toBeDefined();
    expect(consumer.partnerRegistry.tool('reset_counters')).toBeUndefined();
    await app.close();
  });

  it('a runtime registration through one registry is served by that server only', async () => {
    const app = await compile([adminMcpModule(admin()), partner()], [PartnerTools]);
    await app.init();
    // admin's closure allows every tool (partner's policy would hide one it does not name).
    app.get<McpRegistry>(getMcpRegistryToken('admin')).registerTool({
      name: 'late',
      description: 'Registered after boot',
      inputSchema: { type: 'object' },
      handler: () => 'late',
    });
    expect(await toolsOf(app, 'admin')).toContain('late');
    expect(await toolsOf(app, 'partner')).not.toContain('late');
    expect(app.get<McpRegistry>(getMcpRegistryToken('partner')).tool('late')).toBeUndefined();
    await app.close();
  });

  it("injecting a server's class without a name fails boot when there are several", async () => {
    @Injectable()
    class Ambiguous {
      constructor(readonly server: McpWarden) {}
    }
    const message = await bootError(
      [adminMcpModule(admin()), partner()],
      [PartnerTools, Ambiguous],
    );
    expect(message).toContain('Ambiguous injects McpWarden without naming a server');
    expect(message).toContain("@InjectMcpWarden('name')");
  });
});

describe('several servers: forRootAsync', () => {
  @Injectable()
  class ServersConfig {
    readonly adminVersion = '1.1.0';
    readonly partnerVersion = '2.1.0';
  }
  @Module({ providers: [ServersConfig], exports: [ServersConfig] })
  class ConfigModule {}

  const asyncServer = (
    name: string,
    options: (config: ServersConfig) => ReturnType<typeof adminOptions>,
  ): DynamicModule =>
    McpModule.forRootAsync({
      name,
      transport: 'http',
      imports: [ConfigModule],
      inject: [ServersConfig],
      useFactory: options,
    });

  it('each server may come from its own factory, named beside it', async () => {
    const app = await compile(
      [
        adminMcpModule(
          asyncServer('admin', (config) => adminOptions({ version: config.adminVersion })),
        ),
        asyncServer('partner', (config) => partnerOptions({ version: config.partnerVersion })),
      ],
      [PartnerTools],
    );
    await app.listen(0, '127.0.0.1');
    const client = await McpTestClient.connect(app, { server: 'partner' });
    expect(client.initializeResult.serverInfo).toEqual({ name: 'partner', version: '2.1.0' });
    expect((await client.listTools()).map((tool) => tool.name).sort()).toEqual([
      'quote',
      'status',
      'wipe',
    ]);
    await client.close();
    // admin over the wire, through its own path.
    const { port } = app.getHttpServer().address() as AddressInfo;
    const { body } = await new HttpTestApp(app, port, '/admin/mcp').initialize();
    expect(body.result.serverInfo).toEqual({ name: 'admin', version: '1.1.0' });
    await app.close();
  });

  it('an unnamed forRootAsync among several fails boot, saying where the name goes', async () => {
    const unnamed = McpModule.forRootAsync({
      transport: 'http',
      useFactory: () => partnerOptions(),
    });
    const message = await bootError([adminMcpModule(admin()), unnamed], [PartnerTools]);
    expect(message).toContain("server 'partner' comes from forRootAsync without a name");
    expect(message).toContain("McpModule.forRootAsync({ name: 'partner'");
  });

  it('a factory whose name differs from the one beside it fails boot', async () => {
    const message = await bootError(
      [asyncServer('partner', () => partnerOptions({ name: 'partners' }))],
      [],
    );
    expect(message).toContain(
      "forRootAsync is named 'partner' beside its factory, but the factory returned name 'partners'",
    );
  });
});

describe('several servers: what one app cannot hold twice', () => {
  it('two servers at one path fail boot, naming the option', async () => {
    const message = await bootError([
      admin(),
      partner({ http: { path: '/admin/mcp', ssePairPath: '/partner' } }),
    ]);
    expect(message).toContain("servers 'admin' and 'partner' both serve /admin/mcp");
  });

  it('two SSE pairs at the root fail boot, pointing at http.ssePairPath', async () => {
    const message = await bootError([
      admin({ http: { path: '/admin/mcp' } }),
      partner({ http: { path: '/partner/mcp' } }),
    ]);
    expect(message).toContain("both serve /sse; set 'partner''s http.ssePairPath");
  });

  it('two stdio servers fail boot', async () => {
    const message = await bootError([
      McpModule.forRoot({ name: 'one', version: '1', transport: 'stdio' }),
      McpModule.forRoot({ name: 'two', version: '1', transport: 'stdio' }),
    ]);
    expect(message).toContain("servers 'one', 'two' all declare stdio");
  });
});

describe('several servers: McpHttpAuth names the gate', () => {
  @Controller('ops')
  class OpsController {
    @Get('admin')
    @McpHttpAuth('admin')
    adminOnly() {
      return { ok: 'admin' };
    }
  }

  it("an app route behind one server's gate is admitted by that server's authentication", async () => {
    const app = await compile(
      [
        adminMcpModule(
          admin({
            http: {
              path: '/admin/mcp',
              ssePairPath: '/admin',
              authenticate: (req: { headers: Record<string, unknown> }) =>
                req.headers['x-admin'] === 'yes' ? { subject: 'ann' } : null,
            },
          }),
        ),
        partner(),
      ],
      [PartnerTools],
      [OpsController] as never[],
    );
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/ops/admin`;
    expect((await fetch(url)).status).toBe(401);
    const admitted = await fetch(url, { headers: { 'x-admin': 'yes' } });
    expect(admitted.status).toBe(200);
    expect(await admitted.json()).toEqual({ ok: 'admin' });
    await app.close();
  });

  it('an unnamed McpHttpAuth fails boot when there are several servers', async () => {
    @Controller('metrics')
    @McpHttpAuth()
    class MetricsController {
      @Get()
      scrape() {
        return 'metrics';
      }
    }
    const failure = await bootOutcome(
      await compile([adminMcpModule(admin()), partner()], [PartnerTools], [
        MetricsController,
      ] as never[]),
    );
    expect(failure?.message).toContain('McpHttpAuthGuard injects McpHttpGate');
  });
});

describe('several servers: audit', () => {
  it('one audit sink object handed to two servers fails boot', async () => {
    const sink = McpAuditSinks.otelLogs();
    const message = await bootError([
      admin({ audit: { sinks: [sink] } }),
      partner({ audit: { sinks: [sink] } }),
    ]);
    expect(message).toContain(
      "servers 'admin' and 'partner' were given the same audit sink object",
    );
  });
});

describe('several servers: what they must not share', () => {
  it.each([
    [
      'approval store',
      () => ({ approvals: { store: sharedApprovalStore } }),
      'approvals.store object',
    ],
    ['task store', () => ({ tasks: { store: sharedTaskStore } }), 'tasks.store object'],
    [
      'audit instance',
      () => ({ audit: { sinks: [McpAuditSinks.otelLogs()], instance: 'pod-1' } }),
      'share one audit.instance',
    ],
    [
      'Redis key prefix',
      () => ({ cluster: { redisUrl: 'redis://127.0.0.1:6379', keyPrefix: 'shop:' } }),
      'share one cluster.keyPrefix',
    ],
  ])('one %s for two servers fails boot', async (_what, extra, message) => {
    const failure = await bootError([admin(extra()), partner(extra())]);
    expect(failure).toContain("servers 'admin' and 'partner'");
    expect(failure).toContain(message);
  });

  it('two servers whose metadata would sit at one path fail boot, naming the audience', async () => {
    const auth = (audience: string) => ({
      issuer: 'https://issuer.example',
      audience,
      jwksUri: 'https://issuer.example/jwks',
    });
    const message = await bootError([
      admin({
        http: { path: '/admin/mcp', ssePairPath: '/admin', auth: auth('https://a.example/') },
      }),
      partner({
        http: { path: '/partner/mcp', ssePairPath: '/partner', auth: auth('https://b.example/') },
      }),
    ]);
    expect(message).toContain(
      "both serve /.well-known/oauth-protected-resource; set 'partner''s http.auth.audience",
    );
  });

  it('the test client asks for a server by name when the app has several', async () => {
    const app = await compile([adminMcpModule(admin()), partner()], [PartnerTools]);
    await app.init();
    await expect(McpTestClient.connect(app)).rejects.toThrow(
      "this app has several servers; name one: { server: 'admin' | 'partner' }",
    );
    await app.close();
  });
});
