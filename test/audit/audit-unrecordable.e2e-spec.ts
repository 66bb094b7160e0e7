import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpAuditSinks, McpWarden, type McpAuditEvent } from '../../src/index.js';
import { createHttpApp, type HttpTestApp } from '../support/http-app.js';
import { AuditedTools, auditAuthorizer, logDir, recordsOf } from './audit-app.js';

/*
 * Arguments with no RFC 8785 form (a lone surrogate, which the official SDK sends as it is; a
 * number past a double's range, `1e400`, which parses to Infinity) cannot be named in a record
 * by their digest. Where the audit records, such a call is denied and the denial recorded, not
 * lost to an internal error; where nothing records, it runs as any other.
 */

describe('tools/call with arguments that have no canonical form', () => {
  let t: HttpTestApp;
  let dir: string;
  const events: McpAuditEvent[] = [];
  beforeAll(async () => {
    dir = logDir();
    t = await createHttpApp(
      { authorizer: auditAuthorizer, audit: { sinks: [McpAuditSinks.jsonl({ dir })] } },
      [AuditedTools],
    );
    t.app.get(McpWarden).audit$.subscribe((event) => events.push(event));
  });
  afterAll(() => t?.close());

  const deniedFor = (requestId: unknown) => ({
    kind: 'decision',
    seam: 'tool',
    name: 'fine',
    decision: 'deny',
    detail: 'unrecordable_arguments',
    requestId,
  });

  it('a lone surrogate, from the official SDK client: denied, and the denial recorded', async () => {
    const client = new Client({ name: 'surrogates', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(t.url)));
    const from = events.length;
    const result = await client.callTool({ name: 'fine', arguments: { text: 'a\ud800b' } });
    await client.close();
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).toContain('unrecordable_arguments');
    const mine = events.slice(from).filter((event) => event.name === 'fine');
    expect(mine).toEqual([expect.objectContaining(deniedFor(mine[0]?.requestId))]);
    expect(mine[0]!.argumentsDigest).toBeUndefined();
    expect(t.app.get(AuditedTools).ran).toEqual([]);
  });

  it('a number past a double’s range: denied, and the denial recorded and kept', async () => {
    const { sessionId } = await t.initialize();
    const from = events.length;
    const response = await t.post(
      '{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"fine","arguments":{"text":"x","n":1e400}}}',
      { 'mcp-session-id': sessionId },
    );
    const body = (await response.json()) as { result: { isError: boolean } };
    expect(body.result.isError).toBe(true);
    expect(events.slice(from).filter((event) => event.name === 'fine')).toEqual([
      expect.objectContaining(deniedFor(77)),
    ]);
    expect(t.app.get(AuditedTools).ran).toEqual([]);
    await t.close();
    const kept = (await recordsOf(dir)).filter((record) => record.name === 'fine');
    expect(kept.map((record) => [record.decision, record.detail])).toEqual([
      ['deny', 'unrecordable_arguments'],
      ['deny', 'unrecordable_arguments'],
    ]);
  });

  it('where nothing records, such a call runs as any other', async () => {
    const plain = await createHttpApp({ authorizer: auditAuthorizer }, [AuditedTools]);
    try {
      const client = new Client({ name: 'surrogates', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(plain.url)));
      const result = await client.callTool({ name: 'fine', arguments: { text: 'a\ud800b' } });
      await client.close();
      expect(result.isError).toBeFalsy();
      expect(plain.app.get(AuditedTools).ran).toEqual(['fine']);
    } finally {
      await plain.close();
    }
  });
});
