import { Injectable } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import {
  MCP_OPERATOR_DESK,
  McpTool,
  McpWarden,
  type Authorizer,
  type McpAuditEvent,
  type McpOperatorAskEvent,
  type McpOperatorDesk,
} from '../../src/index.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import { listen, type Outbound } from '../support/outbound.js';
import { ELICIT, modernMessage } from '../modern/modern-app.js';

/*
 * An ask is raised only for a call that could run (docs/operator-approvals.md): the tool seam
 * decides on the raw arguments first, and a deny answers before any validation (a denied
 * caller learns nothing of the schema); an ask validates the arguments, and arguments that
 * fail answer with the validation error: no elicitation reaches the caller, no operator ask
 * reaches the desk, in either era. An allow validates as it always did.
 */

const runs: string[] = [];
const TABLE = { type: 'object', properties: { table: { type: 'string' } }, required: ['table'] };

@Injectable()
class AskTools {
  @McpTool({ description: 'Drop a table (the caller approves)', input: TABLE })
  drop({ table }: { table: string }) {
    runs.push(`drop ${table}`);
    return `dropped ${table}`;
  }

  @McpTool({ description: 'Purge a table (an operator approves)', input: TABLE })
  purge({ table }: { table: string }) {
    runs.push(`purge ${table}`);
    return `purged ${table}`;
  }

  @McpTool({ description: 'Shred a table (never)', input: TABLE })
  shred({ table }: { table: string }) {
    runs.push(`shred ${table}`);
    return `shredded ${table}`;
  }
}

const policy: Authorizer = (name) => {
  if (name === 'drop') return { kind: 'ask', prompt: 'Drop it?' };
  if (name === 'purge') return { kind: 'ask', prompt: 'Purge it?', approver: 'operator' };
  if (name === 'shred') return { kind: 'deny', reason: 'shredding is off' };
  return { kind: 'allow' };
};

const INVALID = { table: 42 };
const invalid = (tool: string) => ({
  content: [
    {
      type: 'text',
      text: expect.stringMatching(new RegExp(`^Invalid arguments for tool ${tool}`)),
    },
  ],
  isError: true,
});

let t: McpTestApp;
let warden: McpWarden;
let desk: McpOperatorDesk;
let audit: McpAuditEvent[];
let asks: McpOperatorAskEvent[];
let a: Outbound;
const subscriptions: Subscription[] = [];

beforeEach(async () => {
  runs.length = 0;
  t = await createMcpApp(
    { authorizer: policy, authorizerSource: 'configured', elicitationTimeoutMs: 2_000 },
    [AskTools],
  );
  warden = t.app.get(McpWarden);
  desk = t.app.get<McpOperatorDesk>(MCP_OPERATOR_DESK);
  audit = [];
  asks = [];
  subscriptions.push(warden.audit$.subscribe((event) => audit.push(event)));
  subscriptions.push(desk.events$.subscribe((event) => asks.push(event)));
  a = listen(t.server, 'a');
  subscriptions.push(a.subscription);
  await t.initialize('a', ELICIT);
});
afterEach(async () => {
  for (const subscription of subscriptions.splice(0)) subscription.unsubscribe();
  await t.close();
});

const call = (id: number, name: string, args: object) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** One handshake-era call on connection `a`: its response, or null when it parked. */
const handle = (message: object): Promise<any> => t.server.handleMessage(message, 'a');

/** Nobody was asked: no elicitation went out, no operator ask was recorded or audited. */
async function expectNobodyAsked(): Promise<void> {
  expect(a.ofMethod('elicitation/create')).toEqual([]);
  expect(asks).toEqual([]);
  expect((await desk.pending()).total).toBe(0);
  expect(audit.filter((event) => event.seam !== 'tool')).toEqual([]);
  expect(runs).toEqual([]);
}

describe('handshake era', () => {
  it('a caller ask with invalid arguments answers the validation error; the caller is not asked', async () => {
    const reply = await handle(call(1, 'drop', INVALID));
    expect(reply).toEqual({ jsonrpc: '2.0', id: 1, result: invalid('drop') });
    await expectNobodyAsked();
    // The same tool with valid arguments asks: the fixture is not what stays silent.
    const asked = a.next((m) => m.method === 'elicitation/create');
    expect(await handle(call(2, 'drop', { table: 'notes' }))).toBeNull();
    expect((await asked).params.message).toBe('Drop it?');
  });

  it('an operator ask with invalid arguments answers the validation error; no ask reaches the desk', async () => {
    const reply = await handle(call(3, 'purge', INVALID));
    expect(reply).toEqual({ jsonrpc: '2.0', id: 3, result: invalid('purge') });
    await expectNobodyAsked();
  });

  it('a deny wins over invalid arguments: the denied caller learns nothing of the schema', async () => {
    const reply = await handle(call(4, 'shred', INVALID));
    expect(reply.result.isError).toBe(true);
    expect(reply.result.content[0].text).not.toMatch(/Invalid arguments/);
    expect(JSON.parse(reply.result.content[0].text)).toMatchObject({
      decision: 'deny',
      detail: 'shredding is off',
    });
    await expectNobodyAsked();
  });
});

describe('modern era', () => {
  const send = (id: number, name: string, args: object): Promise<any> =>
    warden.handleMessage(modernMessage(id, 'tools/call', { name, arguments: args }, ELICIT));

  it('a caller ask with invalid arguments completes with the validation error, not input-required', async () => {
    const reply = await send(5, 'drop', INVALID);
    expect(reply.result).toMatchObject({ ...invalid('drop'), resultType: 'complete' });
    await expectNobodyAsked();
    const asking = await send(6, 'drop', { table: 'notes' });
    expect(asking.result.resultType).toBe('input_required');
  });

  it('an operator ask with invalid arguments completes with the validation error; no ask reaches the desk', async () => {
    const reply = await send(7, 'purge', INVALID);
    expect(reply.result).toMatchObject({ ...invalid('purge'), resultType: 'complete' });
    await expectNobodyAsked();
  });

  it('a deny wins over invalid arguments', async () => {
    const reply = await send(8, 'shred', INVALID);
    expect(reply.result.content[0].text).not.toMatch(/Invalid arguments/);
    expect(reply.result.structuredContent).toMatchObject({ decision: 'deny' });
  });
});
