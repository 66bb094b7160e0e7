import type { DynamicModule, Provider } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import {
  Authorizers,
  MCP_APPROVAL_STORE,
  type McpApprovalStore,
  MCP_NONCE_STORE,
  McpModule,
  type McpModuleOptions,
  type McpNonceStore,
} from '../../src/index.js';
import { MemoryApprovalStore } from '../../src/mcp/approvals/stores/memory-approval.store.js';
import { MCP_SHARED_STORES } from '../../src/mcp/approvals/stores/shared-stores.interface.js';
import { MCP_CONSOLE_SESSION_STORE } from '../../src/mcp/approvals/console/console-session-store.interface.js';
import { MCP_NOTIFICATION_RELAY } from '../../src/mcp/engine/notification-relay.interface.js';
import { MCP_SHARED_CALL_RATE } from '../../src/mcp/transports/http/security/shared-call-rate.interface.js';
import { MCP_SESSION_DIRECTORY } from '../../src/mcp/transports/http/session/session-directory.interface.js';
import { MCP_SESSION_RELAY } from '../../src/mcp/transports/http/session/session-relay.interface.js';
import { deleteKeys, uniquePrefix } from '../cluster/cluster-support.js';
import { describeWithService, findService, TEST_REDIS_URL } from '../support/services.js';

/*
 * Ports, not provider order: every token of the MCP module is provided once, so each port
 * resolves to the same implementation whatever order the module's providers are listed in,
 * with the in-memory defaults and with cluster mode's shared stores alike.
 */

/** The ports whose implementation depends on the options (memory, Redis, or none). */
const PORTS: Record<string, string | symbol> = {
  nonceStore: MCP_NONCE_STORE,
  approvalStore: MCP_APPROVAL_STORE,
  consoleSessionStore: MCP_CONSOLE_SESSION_STORE,
  sessionDirectory: MCP_SESSION_DIRECTORY,
  sessionRelay: MCP_SESSION_RELAY,
  sharedCallRate: MCP_SHARED_CALL_RATE,
  notificationRelay: MCP_NOTIFICATION_RELAY,
  sharedStores: MCP_SHARED_STORES,
};

/** Orders to list the providers in: as declared, reversed, halves swapped, odd before even. */
const ORDERS: Record<string, <T>(list: T[]) => T[]> = {
  declared: (list) => [...list],
  reversed: (list) => [...list].reverse(),
  rotated: (list) => [...list.slice(list.length >> 1), ...list.slice(0, list.length >> 1)],
  interleaved: (list) => [...list.filter((_, i) => i % 2), ...list.filter((_, i) => !(i % 2))],
};

const BASE: McpModuleOptions = {
  name: 'provider-order',
  version: '1.0.0',
  transport: 'http',
  authorizer: Authorizers.allowAll(),
  authorizerSource: 'configured',
  readAuthorizer: Authorizers.allowAll(),
};

function tokenOf(provider: Provider): unknown {
  return typeof provider === 'function' ? provider : provider.provide;
}

function describeToken(token: unknown): string {
  return typeof token === 'function' ? token.name : String(token);
}

/** Tokens listed more than once in the module's providers. */
function doubled(module: DynamicModule): string[] {
  const seen = new Set<unknown>();
  const twice = new Set<unknown>();
  for (const provider of module.providers ?? []) {
    const token = tokenOf(provider);
    (seen.has(token) ? twice : seen).add(token);
  }
  return [...twice].map(describeToken);
}

/** The class each port resolves to (null where the port resolves to null) under `order`. */
async function portsUnder(
  options: McpModuleOptions,
  order: <T>(list: T[]) => T[],
): Promise<Record<string, string | null>> {
  const module = McpModule.forRoot(options);
  const reordered = { ...module, providers: order(module.providers ?? []) };
  const moduleRef = await Test.createTestingModule({ imports: [reordered] }).compile();
  try {
    const found: Record<string, string | null> = {};
    for (const [name, token] of Object.entries(PORTS)) {
      const value = moduleRef.get<object | null>(token, { strict: false });
      found[name] = value ? value.constructor.name : null;
    }
    return found;
  } finally {
    await moduleRef.close();
  }
}

describe('the MCP module provides each token once', () => {
  it.each([
    ['forRoot over stdio', McpModule.forRoot({ ...BASE, transport: undefined })],
    ['forRoot over HTTP', McpModule.forRoot(BASE)],
    [
      'forRootAsync over HTTP',
      McpModule.forRootAsync({ transport: 'http', useFactory: () => BASE }),
    ],
  ])('%s', (_, module) => {
    expect(doubled(module)).toEqual([]);
  });
});

describe('ports do not depend on provider order, in memory', () => {
  it.each(Object.keys(ORDERS).filter((name) => name !== 'declared'))(
    'listed %s, every port resolves as declared',
    async (name) => {
      const declared = await portsUnder(BASE, ORDERS.declared);
      expect(declared).toMatchObject({
        nonceStore: 'MemoryNonceStore',
        approvalStore: 'MemoryApprovalStore',
        consoleSessionStore: 'MemoryConsoleSessionStore',
        sessionDirectory: null,
        sharedStores: null,
      });
      expect(await portsUnder(BASE, ORDERS[name])).toEqual(declared);
    },
  );
});

describeWithService(
  await findService(TEST_REDIS_URL),
  'ports do not depend on provider order, in cluster mode',
  (redisUrl) => {
    const prefix = uniquePrefix();
    const clustered: McpModuleOptions = { ...BASE, cluster: { redisUrl, keyPrefix: prefix } };
    afterAll(() => deleteKeys(redisUrl, prefix));

    it.each(Object.keys(ORDERS).filter((name) => name !== 'declared'))(
      'listed %s, every port resolves as declared',
      async (name) => {
        const declared = await portsUnder(clustered, ORDERS.declared);
        expect(declared).toMatchObject({
          nonceStore: 'RedisNonceStore',
          approvalStore: 'RedisApprovalStore',
          consoleSessionStore: 'RedisConsoleSessionStore',
          sessionDirectory: 'RedisSessionDirectory',
          sessionRelay: 'McpClusterRelay',
          sharedCallRate: 'RedisCallRate',
          sharedStores: 'RedisSharedStores',
        });
        expect(await portsUnder(clustered, ORDERS[name])).toEqual(declared);
      },
    );

    it('an explicit nonceStore option still wins over the shared one, in any order', async () => {
      class OwnNonceStore implements McpNonceStore {
        consume(): boolean {
          return true;
        }
      }
      const own = { ...clustered, nonceStore: new OwnNonceStore() };
      for (const order of Object.values(ORDERS)) {
        expect((await portsUnder(own, order)).nonceStore).toBe('OwnNonceStore');
      }
    });

    it('an explicit approvals.store option wins over the shared one, in any order', async () => {
      // A store of the application's own: the memory store's behaviour under another name.
      class OwnApprovalStore extends MemoryApprovalStore {}
      const store: McpApprovalStore = new OwnApprovalStore({ maxPending: 10, maxPerCaller: 2 });
      const own = { ...clustered, approvals: { store } };
      for (const order of Object.values(ORDERS)) {
        expect((await portsUnder(own, order)).approvalStore).toBe('OwnApprovalStore');
      }
    });
  },
);
