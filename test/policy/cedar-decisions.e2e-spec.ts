import type { INestApplication } from '@nestjs/common';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpV2,
} from '@modelcontextprotocol/client';
import { McpWarden, type McpAuditEvent, type McpPrincipal } from '../../src/index.js';
import { McpTestClient } from '../../src/testing/index.js';
import { freePort } from '../auth/auth-app.js';
import { MODERN } from '../modern/modern-app.js';
import { sdkAnswers } from '../modern/sdk-v2-support.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import { policyApp } from './policy-app.js';

/*
 * The decision table of DESIGN §6.2 on real Cedar, through the official SDK clients in both
 * eras (callers identified by tokens from a real oidc-provider) and in process: each row is a
 * caller, a call, and what the policy must decide, with the determining policy in the audit.
 */

interface Caller {
  readonly subject: string;
  readonly scope: string;
  readonly claims: Record<string, unknown>;
}

const ALICE: Caller = {
  subject: 'alice',
  scope: 'pay',
  claims: { groups: ['payers'], dept: 'eng' },
};
const BOB: Caller = { subject: 'bob', scope: 'pay', claims: { dept: 'sales' } };
const MIA: Caller = { subject: 'mia', scope: 'ops', claims: { dept: 'ops' } };

type Outcome =
  { allow: string } | { deny: string; policies: string[] } | { asked: string; policies: string[] };

const ROWS: [string, Caller, string, Record<string, unknown>, Outcome][] = [
  ['a permit allows', ALICE, 'transfer', { amount: 10, to: 'x' }, { allow: 'sent 10 to x' }],
  [
    'a forbid on an argument beats the permit',
    ALICE,
    'transfer',
    { amount: 5000, to: 'x' },
    { deny: 'over_limit', policies: ['transfer-limit'] },
  ],
  [
    'no permit for a caller outside the group',
    BOB,
    'transfer',
    { amount: 10, to: 'x' },
    { deny: 'not_permitted', policies: [] },
  ],
  [
    'an @ask permit asks the caller, with the argument in the prompt',
    ALICE,
    'confirm',
    { id: 'x1' },
    { asked: 'Confirm x1?', policies: ['confirm-asks'] },
  ],
  ['a claim mapped to an attribute allows', ALICE, 'reset', { reason: 'r' }, { allow: 'reset' }],
  ['no tool has a permit', ALICE, 'secret', {}, { deny: 'not_permitted', policies: [] }],
];

type Call = (
  caller: Caller,
  tool: string,
  args: Record<string, unknown>,
) => Promise<{
  result: any;
  asked: string[];
}>;

interface Harness {
  call: Call;
  list: (caller: Caller) => Promise<string[]>;
  audit: McpAuditEvent[];
  close(): Promise<void>;
}

let issuer: TestIssuer;
beforeAll(async () => {
  issuer = await startTestIssuer();
});
afterAll(async () => {
  await issuer?.close();
});

async function overHttp(era: 'legacy' | 'modern'): Promise<Harness> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const app: INestApplication = await policyApp(
    {
      transport: 'http',
      http: { auth: { issuer: issuer.issuer, audience: url, jwksUri: issuer.jwksUri } },
    },
    port,
  );
  const audit: McpAuditEvent[] = [];
  const watching = app.get(McpWarden).audit$.subscribe((event) => audit.push(event));
  const clients: { close(): Promise<void> }[] = [];
  const connect = async (caller: Caller) => {
    const token = await issuer.mintToken({
      aud: url,
      sub: caller.subject,
      scope: caller.scope,
      claims: caller.claims,
    });
    const headers = { authorization: `Bearer ${token}` };
    const asked: string[] = [];
    if (era === 'legacy') {
      const client = new ClientV1(
        { name: 'v1', version: '1' },
        { capabilities: { elicitation: {} } },
      );
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        asked.push(request.params.message);
        return { action: 'accept', content: { approve: true } };
      });
      await client.connect(new HttpV1(new URL(url), { requestInit: { headers } }));
      clients.push(client);
      return {
        asked,
        call: (name: string, args: object) => client.callTool({ name, arguments: args as any }),
        list: async () => (await client.listTools()).tools.map((tool) => tool.name),
      };
    }
    const client = new ClientV2(
      { name: 'v2', version: '1' },
      {
        capabilities: { elicitation: {}, sampling: {}, roots: {} },
        versionNegotiation: { mode: { pin: MODERN } },
      },
    );
    const answers = sdkAnswers(client);
    answers.elicit = { action: 'accept', content: { approve: true } };
    await client.connect(new HttpV2(new URL(url), { requestInit: { headers } }));
    expect(client.getProtocolEra()).toBe('modern');
    clients.push(client);
    return {
      asked,
      call: async (name: string, args: object) => {
        const result = await client.callTool({ name, arguments: args as any });
        for (const question of answers.asked.splice(0)) {
          asked.push((question.params as { message: string }).message);
        }
        return result;
      },
      list: async () => (await client.listTools()).tools.map((tool) => tool.name),
    };
  };
  return {
    audit,
    call: async (caller, tool, args) => {
      const client = await connect(caller);
      return { result: await client.call(tool, args), asked: client.asked };
    },
    list: async (caller) => (await connect(caller)).list(),
    close: async () => {
      watching.unsubscribe();
      for (const client of clients) await client.close();
      await app.close();
    },
  };
}

async function inProcess(): Promise<Harness> {
  const app = await policyApp({}, 0);
  const audit: McpAuditEvent[] = [];
  const watching = app.get(McpWarden).audit$.subscribe((event) => audit.push(event));
  const clients: McpTestClient[] = [];
  const connect = async (caller: Caller) => {
    const principal: McpPrincipal = {
      subject: caller.subject,
      scopes: caller.scope.split(' '),
      issuer: 'https://issuer.example',
      claims: caller.claims,
    };
    const client = await McpTestClient.connect(app, { principal });
    clients.push(client);
    return client;
  };
  return {
    audit,
    call: async (caller, tool, args) => {
      const client = await connect(caller);
      const asked: string[] = [];
      client.onApproval((request) => {
        asked.push(request.message);
        return 'approve';
      });
      return { result: await client.callTool(tool, args), asked };
    },
    list: async (caller) => (await (await connect(caller)).listTools()).map((tool) => tool.name),
    close: async () => {
      watching.unsubscribe();
      for (const client of clients) await client.close();
      await app.close();
    },
  };
}

const TRANSPORTS: [string, () => Promise<Harness>][] = [
  ['HTTP, handshake era, SDK v1', () => overHttp('legacy')],
  ['HTTP, modern era, SDK v2', () => overHttp('modern')],
  ['in process', inProcess],
];

describe.each(TRANSPORTS)('Cedar decisions (%s)', (_label, start) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await start();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it.each(ROWS)('%s', async (_row, caller, tool, args, outcome) => {
    harness.audit.length = 0;
    const { result, asked } = await harness.call(caller, tool, args);
    const decided = harness.audit.find((event) => event.seam === 'tool' && event.name === tool)!;
    expect(decided.policyVersion).toMatch(/^[0-9a-f]{16}$/);
    if ('allow' in outcome) {
      expect(result.content).toEqual([{ type: 'text', text: outcome.allow }]);
      expect(decided.decision).toBe('allow');
      expect(asked).toEqual([]);
    } else if ('deny' in outcome) {
      expect(result.structuredContent).toEqual({
        error: 'authorization_required',
        tool,
        decision: 'deny',
        detail: outcome.deny,
      });
      expect(decided).toMatchObject({ decision: 'deny', policies: outcome.policies });
    } else {
      expect(asked).toEqual([outcome.asked]);
      expect(decided).toMatchObject({
        decision: 'ask',
        detail: outcome.asked,
        policies: outcome.policies,
      });
      expect(result.isError).toBeFalsy();
    }
  });

  it('tools/list shows what some permit could let this caller call (DESIGN §6.3)', async () => {
    // transfer is listed to alice (a payer) whatever the amount; never to bob; secret to nobody.
    expect((await harness.list(ALICE)).sort()).toEqual(['confirm', 'reset', 'search', 'transfer']);
    expect((await harness.list(BOB)).sort()).toEqual(['confirm', 'reset', 'search']);
    expect((await harness.list(MIA)).sort()).toEqual(['confirm', 'reset', 'search']);
  });
});

describe('Cedar decisions in audit events', () => {
  it('a repeated decision, served from the cache, names its policies whatever a subscriber did', async () => {
    const harness = await inProcess();
    try {
      const denied = async () => {
        harness.audit.length = 0;
        await harness.call(ALICE, 'transfer', { amount: 5000, to: 'x' });
        return harness.audit.find((event) => event.seam === 'tool' && event.name === 'transfer')!;
      };
      const first = await denied();
      expect(first.policies).toEqual(['transfer-limit']);
      // The ids are the cache's own array: a subscriber that edits them is refused.
      expect(() => (first.policies as string[]).push('made-up')).toThrow(TypeError);
      expect(() => (first.policies as string[]).splice(0)).toThrow(TypeError);
      expect((await denied()).policies).toEqual(['transfer-limit']);
    } finally {
      await harness.close();
    }
  });
});
