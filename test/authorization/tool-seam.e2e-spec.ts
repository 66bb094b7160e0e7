import { Authorizers, type Authorizer, type AuthorizerContext } from '../../src/index.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import { recorder, denial, NoteTools } from './authorization-app.js';

describe('authorization', () => {
  let t: McpTestApp | undefined;

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  describe('Authorizers builders', () => {
    const ctx: AuthorizerContext = { connId: 'c', transport: 'unknown', purpose: 'call' };

    it('allowAll() allows anything', async () => {
      expect(await Authorizers.allowAll()('anything', {}, ctx)).toEqual({ kind: 'allow' });
    });

    it("denyAll() denies with reason 'denied' by default, or the given reason", async () => {
      expect(await Authorizers.denyAll()('x', {}, ctx)).toEqual({ kind: 'deny', reason: 'denied' });
      expect(await Authorizers.denyAll('closed')('x', {}, ctx)).toEqual({
        kind: 'deny',
        reason: 'closed',
      });
    });

    it("allowlist() allows listed names and denies others with 'not_allowlisted'", async () => {
      const authorizer = Authorizers.allowlist(['read_note']);
      expect(await authorizer('read_note', {}, ctx)).toEqual({ kind: 'allow' });
      expect(await authorizer('archive_note', {}, ctx)).toEqual({
        kind: 'deny',
        reason: 'not_allowlisted',
      });
    });

    it('decide() treats undefined as allow and awaits async authorizers', async () => {
      expect(await Authorizers.decide(undefined, 'x', {}, ctx)).toEqual({ kind: 'allow' });
      const slow: Authorizer = async () => {
        await Promise.resolve();
        return { kind: 'ask', prompt: 'sure?' };
      };
      expect(await Authorizers.decide(slow, 'x', {}, ctx)).toEqual({
        kind: 'ask',
        prompt: 'sure?',
      });
    });
  });

  describe('tool seam', () => {
    it('answers a deny with the isError deny result and never runs the tool', async () => {
      const authorizer: Authorizer = (name) =>
        name === 'archive_note' ? { kind: 'deny', reason: 'read-only session' } : { kind: 'allow' };
      t = await createMcpApp({ authorizer }, [NoteTools]);
      const result = await t.callTool('archive_note', { id: 'n1' });
      expect(result).toEqual(denial('archive_note', 'deny', 'read-only session'));
      expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
      expect(t.app.get(NoteTools).ran).toEqual([]);
    });

    it('answers an ask (no elicitation) with the deny shape, decision "ask" and the prompt as detail', async () => {
      const authorizer: Authorizer = () => ({ kind: 'ask', prompt: 'Archive note n1?' });
      t = await createMcpApp({ authorizer }, [NoteTools]);
      await t.initialize();
      const result = await t.callTool('archive_note', { id: 'n1' });
      expect(result).toEqual(denial('archive_note', 'ask', 'Archive note n1?'));
      expect(t.app.get(NoteTools).ran).toEqual([]);
    });

    it("denies with 'denied' under Authorizers.denyAll()", async () => {
      t = await createMcpApp({ authorizer: Authorizers.denyAll() }, [NoteTools]);
      expect(await t.callTool('read_note', { id: 'n1' })).toEqual(
        denial('read_note', 'deny', 'denied'),
      );
    });

    it("denies unlisted tools with 'not_allowlisted' and runs listed ones under Authorizers.allowlist()", async () => {
      t = await createMcpApp({ authorizer: Authorizers.allowlist(['read_note']) }, [NoteTools]);
      expect(await t.callTool('read_note', { id: 'n1' })).toEqual({
        content: [{ type: 'text', text: 'note n1' }],
      });
      expect(await t.callTool('archive_note', { id: 'n1' })).toEqual(
        denial('archive_note', 'deny', 'not_allowlisted'),
      );
      expect(t.app.get(NoteTools).ran).toEqual(['read_note']);
    });

    it('runs every tool under Authorizers.allowAll()', async () => {
      t = await createMcpApp({ authorizer: Authorizers.allowAll() }, [NoteTools]);
      expect(await t.callTool('archive_note', { id: 'n2' })).toEqual({
        content: [{ type: 'text', text: 'archived n2' }],
      });
    });

    it('awaits an async authorizer', async () => {
      const authorizer: Authorizer = async (name) => {
        await new Promise<void>((resolve) => setImmediate(resolve));
        return name === 'read_note' ? { kind: 'allow' } : { kind: 'deny', reason: 'async no' };
      };
      t = await createMcpApp({ authorizer }, [NoteTools]);
      expect(await t.callTool('archive_note', { id: 'n1' })).toEqual(
        denial('archive_note', 'deny', 'async no'),
      );
      expect(await t.callTool('read_note', { id: 'n1' })).toEqual({
        content: [{ type: 'text', text: 'note n1' }],
      });
      expect(t.app.get(NoteTools).ran).toEqual(['read_note']);
    });

    it('denies when the authorizer throws on tools/call, without leaking its error text, and hides just that tool', async () => {
      const authorizer: Authorizer = (name) => {
        if (name === 'archive_note') throw new Error('AUTHZ-BACKEND-DOWN at 10.0.0.7');
        return { kind: 'allow' };
      };
      t = await createMcpApp({ authorizer }, [NoteTools]);
      const response = await t.request('tools/call', {
        name: 'archive_note',
        arguments: { id: 'n1' },
      });
      expect(response.error).toBeUndefined();
      expect(response.result.isError).toBe(true);
      expect(response.result.structuredContent).toEqual({
        error: 'authorization_required',
        tool: 'archive_note',
        decision: 'deny',
        detail: expect.any(String),
      });
      expect(JSON.stringify(response)).not.toContain('AUTHZ-BACKEND-DOWN');
      expect(JSON.stringify(response)).not.toContain('10.0.0.7');
      expect(t.app.get(NoteTools).ran).toEqual([]);

      const list = await t.result('tools/list');
      expect(list.tools.map((tool: any) => tool.name)).toEqual(['read_note', 'explode', 'refuse']);
    });

    it('hides denied tools from tools/list but shows ask tools', async () => {
      const authorizer: Authorizer = (name) => {
        if (name === 'archive_note') return { kind: 'ask', prompt: 'Archive?' };
        if (name === 'explode') return { kind: 'deny', reason: 'nope' };
        return { kind: 'allow' };
      };
      t = await createMcpApp({ authorizer }, [NoteTools]);
      const list = await t.result('tools/list');
      expect(list.tools.map((tool: any) => tool.name)).toEqual([
        'read_note',
        'archive_note',
        'refuse',
      ]);
    });

    it('gives the authorizer the raw, unvalidated arguments', async () => {
      const { authorizer, calls } = recorder();
      t = await createMcpApp({ authorizer }, [NoteTools]);
      const raw = { id: 42, extra: { nested: ['x'] } };
      await t.callTool('read_note', raw);
      expect(calls).toEqual([
        {
          name: 'read_note',
          args: raw,
          context: { connId: 'default', transport: 'unknown', era: 'legacy', purpose: 'call' },
        },
      ]);
    });

    it('builds the context {connId, transport, era, purpose} on the server (transport from options); nothing the client sends gets in', async () => {
      const { authorizer, calls } = recorder();
      t = await createMcpApp({ authorizer, transport: 'stdio' }, [NoteTools]);
      await t.initialize('conn-7', { experimental: { connId: { forged: {} } } });
      await t.request(
        'tools/call',
        {
          name: 'read_note',
          arguments: { id: 'n1', connId: 'forged', transport: 'http', purpose: 'visibility' },
          _meta: { connId: 'forged', transport: 'http', purpose: 'visibility', progressToken: 'p' },
        },
        'conn-7',
      );
      const call = calls.find((c) => c.name === 'read_note')!;
      expect(call.context).toEqual({
        connId: 'conn-7',
        transport: 'stdio',
        era: 'legacy',
        purpose: 'call',
      });
      expect(Object.keys(call.context).sort()).toEqual(['connId', 'era', 'purpose', 'transport']);
    });

    it("defaults the context transport to 'unknown'", async () => {
      const { authorizer, calls } = recorder();
      t = await createMcpApp({ authorizer }, [NoteTools]);
      await t.callTool('read_note', { id: 'n1' }, 'conn-9');
      expect(calls[0].context).toEqual({
        connId: 'conn-9',
        transport: 'unknown',
        era: 'legacy',
        purpose: 'call',
      });
    });

    it('runs the seam before input validation: a denied call with invalid args gets the deny', async () => {
      t = await createMcpApp({ authorizer: Authorizers.denyAll('locked') }, [NoteTools]);
      const result = await t.callTool('read_note', { id: 42, bogus: true });
      expect(result).toEqual(denial('read_note', 'deny', 'locked'));
    });

    it('answers input failing the schema on an allowed call with an isError result explaining it', async () => {
      t = await createMcpApp({ authorizer: Authorizers.allowAll() }, [NoteTools]);
      const response = await t.request('tools/call', { name: 'read_note', arguments: { id: 42 } });
      expect(response.error).toBeUndefined();
      expect(response.result.isError).toBe(true);
      expect(response.result.content[0].text).toMatch(/id/);
      expect(response.result.content[0].text).toMatch(/string/);
      expect(t.app.get(NoteTools).ran).toEqual([]);
    });

    it('answers a tool throwing a plain Error with a safe isError message without the error text', async () => {
      t = await createMcpApp({}, [NoteTools]);
      const response = await t.request('tools/call', { name: 'explode', arguments: {} });
      expect(response.error).toBeUndefined();
      expect(response.result.isError).toBe(true);
      expect(response.result.content).toHaveLength(1);
      expect(response.result.content[0].type).toBe('text');
      expect(response.result.content[0].text.length).toBeGreaterThan(0);
      const wire = JSON.stringify(response);
      expect(wire).not.toContain('hunter2');
      expect(wire).not.toContain('secret database password');
      expect(wire).not.toMatch(/\bat .*\.ts:\d+/);
    });

    it('shows the message of an McpToolError', async () => {
      t = await createMcpApp({}, [NoteTools]);
      expect(await t.callTool('refuse', {})).toEqual({
        content: [{ type: 'text', text: 'No note with id 7' }],
        isError: true,
      });
    });

    it('answers an unknown (allowed) tool with -32602', async () => {
      t = await createMcpApp({ authorizer: Authorizers.allowAll() }, [NoteTools]);
      const response = await t.request('tools/call', { name: 'no_such_tool', arguments: {} });
      expect(response.result).toBeUndefined();
      expect(response.error.code).toBe(-32602);
    });
  });
});
