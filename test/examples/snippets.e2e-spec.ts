import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Authorizers, McpModule } from '../../src/index.js';
import { createMcpTestingApp, McpTestClient } from '../../src/testing/index.js';
import { ArchiveTools } from '../../examples/snippets/archive.tools.js';
import { AuditLog } from '../../examples/snippets/audit-log.service.js';
import { options as scopedOptions } from '../../examples/snippets/authorizers.js';
import { AppModule as EveryOptionModule } from '../../examples/snippets/app.module.js';
import { ReportTools } from '../../examples/snippets/context.tools.js';
import { ErrorTools } from '../../examples/snippets/errors.tools.js';
import { bootstrap as bootstrapFastify } from '../../examples/snippets/fastify-main.js';
import { callWithApproval } from '../../examples/snippets/harness.js';
import { bootstrap as bootstrapExpress } from '../../examples/snippets/http-main.js';
import { FeatureFlagTools } from '../../examples/snippets/runtime-tools.service.js';
import { SchemaTools } from '../../examples/snippets/schema-tools.js';
import { TicketsModule } from '../../examples/tickets/tickets.module.js';

/* The guide's snippets (examples/snippets, shown in README.md and docs/), run, so they keep working. */

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'snippets', version: '1.0.0' },
  },
};
const POST_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};
const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;
const alice = { subject: 'alice', scopes: ['tickets:restore'] };

describe('guide snippets: tools, guards, filters, errors, runtime registration', () => {
  let app: INestApplication;
  let client: McpTestClient;
  let stderr: jest.SpiedFunction<typeof process.stderr.write>;

  beforeEach(async () => {
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    app = await createMcpTestingApp({
      imports: [
        McpModule.forRoot({
          name: 'snippets',
          version: '1.0.0',
          authorizer: Authorizers.allowAll(),
          readAuthorizer: Authorizers.allowAll(),
        }),
      ],
      providers: [ErrorTools, ArchiveTools, FeatureFlagTools, ReportTools, AuditLog, SchemaTools],
    });
    client = await McpTestClient.connect(app, {
      capabilities: { elicitation: { form: {} }, sampling: {} },
    });
  });
  afterEach(async () => {
    await client.close();
    await app.close();
    stderr.mockRestore();
  });

  it('serves the same tool written as a DTO, a JSON Schema and a zod schema', async () => {
    for (const kind of ['dto', 'json', 'zod']) {
      const tool = `set_priority_${kind}`;
      const done = await client.callTool(tool, { id: 'T-7', priority: 'high' });
      expect(done.structuredContent).toEqual({ id: 'T-7', priority: 'high' });
      const refused = await client.callTool(tool, { id: 'nope', priority: 'high' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(new RegExp(`^Invalid arguments for tool ${tool}: .*id`));
    }
    // Only zod's version has a default and a transform.
    const zod = await client.callTool('set_priority_zod', { id: 'T-7', reason: '  late  ' });
    expect(zod.structuredContent).toEqual({ id: 'T-7', priority: 'normal', reason: 'late' });
  });

  it('maps what a tool throws', async () => {
    const toolError = await client.callTool('toolError', { id: 'I-1' });
    expect(toolError).toMatchObject({ isError: true, content: [{ text: 'No invoice I-1' }] });
    await expect(client.callTool('protocolError', { id: '?' })).rejects.toMatchObject({
      code: -32602,
      data: { id: '?' },
    });
    const http = await client.callTool('httpError', { id: 'I-2' });
    expect(http).toMatchObject({ isError: true, content: [{ text: 'Invoice I-2 is archived' }] });
    const crash = await client.callTool('crash', { id: 'I-3' });
    expect(crash).toMatchObject({ isError: true, content: [{ text: 'Tool crash failed' }] });
  });

  it('runs the guard, the filter and the request-scoped provider', async () => {
    const refused = await client.callTool('restore', { id: 'A-1' });
    expect(refused.structuredContent).toMatchObject({ decision: 'deny', detail: 'forbidden' });
    expect(textOf(await client.callTool('restore', { id: 'A-1', dryRun: true }))).toBe(
      'Would restore A-1 for anonymous',
    );

    const restorer = await McpTestClient.connect(app, { principal: alice });
    try {
      expect(textOf(await restorer.callTool('restore', { id: 'A-1' }))).toBe(
        'Restored A-1 for alice',
      );
      expect(textOf(await restorer.callTool('restore', { id: 'X-9' }))).toBe(
        'Nothing archived under X-9: unknown id X-9',
      );
    } finally {
      await restorer.close();
    }
  });

  it('registers tools at runtime and announces the change', async () => {
    expect((await client.listTools()).map((tool) => tool.name)).toContain('ping');
    const changed = client.nextNotification('notifications/tools/list_changed');
    app.get(FeatureFlagTools).enable('pong');
    await changed;
    expect(textOf(await client.callTool('pong'))).toBe(`pong from ${client.connId}`);
  });

  it("uses ctx to elicit and sample on the caller's connection", async () => {
    client.onRequest('elicitation/create', () => ({
      action: 'accept',
      content: { format: 'short' },
    }));
    client.onRequest('sampling/createMessage', (params) => ({
      role: 'assistant',
      model: 'test',
      content: { type: 'text', text: `draft of: ${JSON.stringify(params.messages[0].content)}` },
    }));
    const report = await client.callTool('build', { topic: 'VPN' });
    expect(textOf(report)).toContain('A short report on VPN');
  });

  it('writes audit events as JSON lines on stderr', async () => {
    await client.callTool('toolError', { id: 'I-1' });
    const lines = stderr.mock.calls.map(([chunk]) => String(chunk));
    expect(lines).toContainEqual(expect.stringContaining('"seam":"tool","name":"toolError"'));
  });
});

describe('guide snippets: policies, the harness and the module options', () => {
  it('decides by scope and transport', async () => {
    const context = { connId: 'c1', transport: 'http' as const, purpose: 'call' as const };
    const decide = (name: string, scopes: string[]) =>
      Authorizers.decide(
        scopedOptions.authorizer,
        name,
        {},
        {
          ...context,
          principal: { subject: 's', scopes },
        },
      );
    await expect(decide('find', ['tools:find'])).resolves.toEqual({ kind: 'allow' });
    await expect(decide('find', [])).resolves.toEqual({ kind: 'deny', reason: 'missing_scope' });
  });

  it('approves an ask through a hand-written harness on subscribe/dispatch', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [TicketsModule] }).compile();
    const app = await moduleRef.init();
    try {
      await expect(callWithApproval(app, 'close_ticket', { id: 'T-1' })).resolves.toMatchObject({
        structuredContent: { id: 'T-1', status: 'closed' },
      });
    } finally {
      await app.close();
    }
  });

  it('boots with every forRoot option set', async () => {
    const app = await createMcpTestingApp({ imports: [EveryOptionModule] });
    try {
      const client = await McpTestClient.connect(app);
      expect(client.initializeResult.instructions).toContain('Support tickets');
      await client.close();
    } finally {
      await app.close();
    }
  });
});

describe('guide snippets: serving over HTTP', () => {
  it('Express: prefix, CORS (preflight too) and module middleware apply to /api/mcp', async () => {
    const app = await bootstrapExpress(0);
    try {
      const url = `${await app.getUrl()}/api/mcp`;
      const origin = 'http://localhost:5173';
      const preflight = await fetch(url, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);

      const init = await fetch(url, {
        method: 'POST',
        headers: { ...POST_HEADERS, origin, 'x-request-id': 'r-1' },
        body: JSON.stringify(INIT),
      });
      expect(init.status).toBe(200);
      expect(init.headers.get('x-request-id')).toBe('r-1');
      expect(init.headers.get('access-control-expose-headers')).toBe('mcp-session-id');
    } finally {
      await app.close();
    }
  });

  it('Fastify serves the same module', async () => {
    const app = await bootstrapFastify(0);
    try {
      const init = await fetch(`${await app.getUrl()}/mcp`, {
        method: 'POST',
        headers: POST_HEADERS,
        body: JSON.stringify(INIT),
      });
      expect(init.status).toBe(200);
      expect(init.headers.get('mcp-session-id')).toEqual(expect.any(String));
    } finally {
      await app.close();
    }
  });
});
