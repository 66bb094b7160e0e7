import { createHash } from 'node:crypto';
import { type Authorizer, type McpAuditEvent } from '../../src/index.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import {
  denial,
  NoteTools,
  ReadFixtures,
  guardLog,
  guardSetting,
  interceptorLog,
  EnhancedTools,
} from './authorization-app.js';

describe('authorization', () => {
  let t: McpTestApp | undefined;

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  describe('audit', () => {
    it('emits one event per seam decision with time, connId, transport, seam, name, decision, detail', async () => {
      const authorizer: Authorizer = (name) => {
        if (name === 'archive_note') return { kind: 'deny', reason: 'read-only' };
        if (name === 'explode') return { kind: 'ask', prompt: 'Really explode?' };
        return { kind: 'allow' };
      };
      const readAuthorizer: Authorizer = (method) =>
        method === 'prompts/list' ? { kind: 'deny', reason: 'no prompts' } : { kind: 'allow' };
      t = await createMcpApp({ authorizer, readAuthorizer, transport: 'stdio' }, [
        NoteTools,
        ReadFixtures,
      ]);
      const events: McpAuditEvent[] = [];
      const subscription = t.server.audit$.subscribe((event) => events.push(event));

      await t.callTool('read_note', { id: 'n1' }, 'aud');
      await t.callTool('archive_note', { id: 'n1' }, 'aud');
      await t.callTool('explode', {}, 'aud');
      await t.request('resources/read', { uri: 'notes://index' }, 'aud');
      await t.request('prompts/list', {}, 'aud');
      subscription.unsubscribe();

      const base = {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        kind: 'decision',
        connId: 'aud',
        transport: 'stdio',
        era: 'legacy',
        time: expect.any(String),
      };
      // RFC 8785: the canonical JSON of the arguments, hashed (computed here independently).
      const digest = (canonical: string) => createHash('sha256').update(canonical).digest('hex');
      const readNote = events[0]!.id;
      expect(events).toEqual([
        // Each names the request it was taken for (the harness numbers them 1, 2, …).
        {
          ...base,
          requestId: 1,
          seam: 'tool',
          name: 'read_note',
          decision: 'allow',
          argumentsDigest: digest('{"id":"n1"}'),
        },
        // The call ran: its outcome links to its decision.
        {
          ...base,
          kind: 'outcome',
          requestId: 1,
          seam: 'tool',
          name: 'read_note',
          decision: 'allow',
          of: readNote,
          outcome: 'ok',
          durationMs: expect.any(Number),
        },
        {
          ...base,
          requestId: 2,
          seam: 'tool',
          name: 'archive_note',
          decision: 'deny',
          detail: 'read-only',
          argumentsDigest: digest('{"id":"n1"}'),
        },
        {
          ...base,
          requestId: 3,
          seam: 'tool',
          name: 'explode',
          decision: 'ask',
          detail: 'Really explode?',
          argumentsDigest: digest('{}'),
        },
        // This client cannot be asked (no elicitation), and no operator was named: refused.
        {
          ...base,
          requestId: 3,
          seam: 'tool',
          name: 'explode',
          decision: 'deny',
          detail: 'approval_unavailable',
          of: events[3]!.id,
        },
        { ...base, requestId: 4, seam: 'read', name: 'resources/read', decision: 'allow' },
        {
          ...base,
          requestId: 5,
          seam: 'read',
          name: 'prompts/list',
          decision: 'deny',
          detail: 'no prompts',
        },
      ]);
      for (const event of events) {
        expect(Number.isNaN(Date.parse(event.time))).toBe(false);
      }
      expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
    });
  });

  describe("users' own guards and interceptors", () => {
    beforeEach(() => {
      guardLog.length = 0;
      interceptorLog.length = 0;
      guardSetting.allows = true;
    });

    it("runs a @UseGuards guard on an @McpTool method with context type 'mcp'", async () => {
      t = await createMcpApp({}, [EnhancedTools]);
      expect(await t.callTool('guarded', {})).toEqual({
        content: [{ type: 'text', text: 'guarded ran' }],
      });
      expect(guardLog).toEqual(['guard:mcp', 'handler']);
    });

    it("answers with the deny shape (detail 'forbidden') when the user's guard returns false", async () => {
      guardSetting.allows = false;
      t = await createMcpApp({}, [EnhancedTools]);
      expect(await t.callTool('guarded', {})).toEqual(denial('guarded', 'deny', 'forbidden'));
      expect(guardLog).toEqual(['guard:mcp']);
    });

    it('wraps the call with a @UseInterceptors interceptor', async () => {
      t = await createMcpApp({}, [EnhancedTools]);
      expect(await t.callTool('intercepted', {})).toEqual({
        content: [{ type: 'text', text: 'wrapped(inner)' }],
      });
      expect(interceptorLog).toEqual(['before:mcp', 'handler', 'after']);
    });
  });
});
