import { Test } from '@nestjs/testing';
import type { INestApplicationContext, Provider } from '@nestjs/common';
import { McpModule, McpServer, type McpModuleOptions } from '../../src/index.js';
import { bootOutcome } from './boot-outcome.js';

/** An initialized app context serving `providers` through McpModule, plus helpers to talk to it. */
export async function createMcpApp(
  options: Partial<McpModuleOptions> = {},
  providers: Provider[] = [],
): Promise<McpTestApp> {
  const app = await buildApp(options, providers);
  await app.init();
  return new McpTestApp(app, app.get(McpServer));
}

async function buildApp(options: Partial<McpModuleOptions>, providers: Provider[]) {
  const moduleRef = await Test.createTestingModule({
    imports: [McpModule.forRoot({ name: 'test-server', version: '1.0.0', ...options })],
    providers,
  }).compile();
  return moduleRef.createNestApplication({ logger: false });
}

/** Boots an app that must fail `app.init()`; closes it and returns the error. */
export async function bootFailure(
  options: Partial<McpModuleOptions>,
  providers: Provider[],
): Promise<Error> {
  const failure = await bootOutcome(await buildApp(options, providers));
  if (!failure) throw new Error('app.init() resolved but was expected to reject');
  return failure;
}

export class McpTestApp {
  private nextId = 1;

  constructor(
    readonly app: INestApplicationContext,
    readonly server: McpServer,
  ) {}

  /** Sends a request and returns the whole response. */
  request(method: string, params?: object, connId?: string): Promise<any> {
    const message: Record<string, unknown> = { jsonrpc: '2.0', id: this.nextId++, method };
    if (params !== undefined) message.params = params;
    return this.server.handleMessage(message, connId);
  }

  /** Sends a request and returns its result, failing on an error response. */
  async result(method: string, params?: object, connId?: string): Promise<any> {
    const response = await this.request(method, params, connId);
    if (response?.error) throw new Error(`${method}: ${JSON.stringify(response.error)}`);
    return response.result;
  }

  initialize(connId?: string, capabilities: object = {}, protocolVersion = '2025-11-25') {
    return this.result(
      'initialize',
      { protocolVersion, capabilities, clientInfo: { name: 'jest', version: '1.0.0' } },
      connId,
    );
  }

  callTool(name: string, args?: object, connId?: string): Promise<any> {
    return this.result(
      'tools/call',
      args === undefined ? { name } : { name, arguments: args },
      connId,
    );
  }

  close(): Promise<void> {
    return this.app.close();
  }
}
