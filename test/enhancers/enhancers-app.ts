import type { INestApplication, Provider } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import {
  McpModule,
  McpWarden,
  type McpMessageOrigin,
  type McpModuleOptions,
} from '../../src/index.js';

/** What a test may do to the app between creating and initializing it. */
export type Configure = (app: INestApplication) => void;

async function build(providers: Provider[], options: Partial<McpModuleOptions>) {
  const moduleRef = await Test.createTestingModule({
    imports: [McpModule.forRoot({ name: 'enhancers-test', version: '1.0.0', ...options })],
    providers,
  }).compile();
  return moduleRef.createNestApplication({ logger: false });
}

/**
 * An initialized app serving `providers`, talked to in process through
 * `McpWarden`. `configure` runs before `init()`, `afterInit` after it (where
 * an app may still call `useGlobal*()` before it listens).
 */
export async function createEnhancersApp(
  providers: Provider[],
  hooks: { configure?: Configure; afterInit?: Configure; options?: Partial<McpModuleOptions> } = {},
): Promise<EnhancersApp> {
  const app = await build(providers, hooks.options ?? {});
  hooks.configure?.(app);
  await app.init();
  hooks.afterInit?.(app);
  return new EnhancersApp(app, app.get(McpWarden));
}

/** `app.init()`'s rejection for `providers` (fails the test if it boots). */
export async function bootError(providers: Provider[]): Promise<Error> {
  const app = await build(providers, {});
  try {
    await app.init();
  } catch (error) {
    return error as Error;
  } finally {
    await app.close().catch(() => undefined);
  }
  throw new Error('app.init() resolved but was expected to reject');
}

export class EnhancersApp {
  private nextId = 1;

  constructor(
    readonly app: INestApplication,
    readonly warden: McpWarden,
  ) {}

  /** The whole JSON-RPC response to one request, optionally from a given origin. */
  async request(method: string, params: object = {}, origin?: McpMessageOrigin): Promise<any> {
    const message = { jsonrpc: '2.0', id: this.nextId++, method, params };
    if (!origin) return this.warden.handleMessage(message);
    const outcome = await this.warden.dispatch(message, 'default', origin);
    return outcome.kind === 'reply' ? outcome.message : null;
  }

  /** A request's result; fails on a JSON-RPC error. */
  async result(method: string, params: object = {}, origin?: McpMessageOrigin): Promise<any> {
    const response = await this.request(method, params, origin);
    if (response?.error) throw new Error(`${method}: ${JSON.stringify(response.error)}`);
    return response.result;
  }

  initialize(): Promise<any> {
    return this.result('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'jest-enhancers', version: '1.0.0' },
    });
  }

  callTool(name: string, args: object = {}, origin?: McpMessageOrigin): Promise<any> {
    return this.result('tools/call', { name, arguments: args }, origin);
  }

  close(): Promise<void> {
    return this.app.close();
  }
}

/** The text of a tool result's first content block. */
export function textOf(result: { content?: { type: string; text?: string }[] }): string {
  return result.content?.[0]?.text ?? '';
}
