import { McpWarden, type McpModuleOptions, type McpNonceStore } from '../../src/index.js';
import { MemoryNonceStore } from '../../src/mcp/core/stores/memory-nonce.store.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import {
  denial,
  ELICIT,
  MODERN_OPTIONS,
  MODERN_PROVIDERS,
  modernMessage,
  resetFixture,
  runs,
  SERVER_INFO_KEY,
} from './modern-app.js';

/*
 * A requestState across server instances (two apps in one process, served
 * through McpWarden.handleMessage): `stateSecret` decides who can open it,
 * and a nonce store shared by the instances makes it single-use across them.
 */

const SERVER = { [SERVER_INFO_KEY]: { name: 'test-server', version: '1.0.0' } };
const APPROVE = { action: 'accept', content: { approve: true } };
const SECRET = 'a shared secret of the cluster, long enough to matter';

const apps: McpTestApp[] = [];
let nextId = 0;

async function instance(options: Partial<McpModuleOptions>): Promise<McpWarden> {
  const t = await createMcpApp({ ...MODERN_OPTIONS, ...options }, MODERN_PROVIDERS);
  apps.push(t);
  return t.app.get(McpWarden);
}

/** The first call on `server`: the state of its input-required result. */
async function ask(server: McpWarden): Promise<string> {
  const reply = (await server.handleMessage(
    modernMessage(++nextId, 'tools/call', { name: 'purge', arguments: {} }, ELICIT),
  )) as any;
  expect(reply.result.resultType).toBe('input_required');
  return reply.result.requestState;
}

/** The approving retry on `server` with `state`: its result. */
async function approve(server: McpWarden, state: string): Promise<any> {
  const params = {
    name: 'purge',
    arguments: {},
    inputResponses: { approval: APPROVE },
    requestState: state,
  };
  const reply = (await server.handleMessage(
    modernMessage(++nextId, 'tools/call', params, ELICIT),
  )) as any;
  return reply.result;
}

const ran = { content: [{ type: 'text', text: 'purged' }], resultType: 'complete', _meta: SERVER };
const refused = (detail: string) => ({
  ...denial('purge', 'ask', detail),
  resultType: 'complete',
  _meta: SERVER,
});

beforeEach(() => resetFixture());
afterEach(async () => {
  await Promise.all(apps.splice(0).map((t) => t.close()));
});

describe('requestState across instances', () => {
  it('a state sealed under one stateSecret is refused by an instance with another', async () => {
    const a = await instance({ stateSecret: SECRET });
    const b = await instance({ stateSecret: 'another secret altogether, just as long' });
    expect(await approve(b, await ask(a))).toEqual(refused('approval state invalid'));
    expect(runs.purge).toBe(0);
  });

  it('without stateSecret each instance seals under its own random key: the other refuses', async () => {
    const a = await instance({});
    const b = await instance({});
    expect(await approve(b, await ask(a))).toEqual(refused('approval state invalid'));
  });

  it('a second instance sharing the stateSecret accepts the state and runs the tool once', async () => {
    const a = await instance({ stateSecret: SECRET });
    const b = await instance({ stateSecret: SECRET });
    expect(await approve(b, await ask(a))).toEqual(ran);
    expect(runs.purge).toBe(1);
  });

  it('instances sharing the stateSecret and a nonce store accept a state once across both', async () => {
    const nonceStore = new MemoryNonceStore(100);
    const a = await instance({ stateSecret: SECRET, nonceStore });
    const b = await instance({ stateSecret: SECRET, nonceStore });
    const state = await ask(a);
    expect(await approve(b, state)).toEqual(ran);
    expect(await approve(a, state)).toEqual(refused('approval already used'));
    expect(await approve(b, state)).toEqual(refused('approval already used'));
    expect(runs.purge).toBe(1);
  });

  it('a custom McpNonceStore is consulted with the nonce and the expiry, and its verdict holds', async () => {
    const seen: { nonce: string; expiresAt: number }[] = [];
    const used = new Set<string>();
    const nonceStore: McpNonceStore = {
      async consume(nonce, expiresAt) {
        seen.push({ nonce, expiresAt });
        if (used.has(nonce)) return false;
        used.add(nonce);
        return true;
      },
    };
    const server = await instance({
      stateSecret: SECRET,
      nonceStore,
      elicitationTimeoutMs: 30_000,
    });
    const before = Date.now();
    const state = await ask(server);
    const after = Date.now();
    expect(await approve(server, state)).toEqual(ran);
    expect(await approve(server, state)).toEqual(refused('approval already used'));
    expect(seen).toHaveLength(2);
    expect(seen[0].nonce).toEqual(seen[1].nonce);
    expect(seen[0].nonce.length).toBeGreaterThanOrEqual(16);
    expect(seen[0].expiresAt).toBeGreaterThanOrEqual(before + 30_000);
    expect(seen[0].expiresAt).toBeLessThanOrEqual(after + 30_000);
  });
});
