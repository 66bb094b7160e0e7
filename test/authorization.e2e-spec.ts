import {
  Injectable,
  UseGuards,
  UseInterceptors,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { map } from 'rxjs';
import {
  Authorizers,
  McpPrompt,
  McpRegistry,
  McpResource,
  McpResourceTemplate,
  McpTool,
  McpToolError,
  type Authorizer,
  type AuthorizerContext,
  type McpAuditEvent,
  type McpModuleOptions,
} from '../src/index.js';
import { bootFailure, createMcpApp, type McpTestApp } from './support/mcp-test-app.js';

/* ------------------------------------------------------------------ helpers */

/** An authorizer that records every call and answers with `decide` (allow by default). */
function recorder(decide: Authorizer = Authorizers.allowAll()) {
  const calls: { name: string; args: Record<string, unknown>; context: AuthorizerContext }[] = [];
  const authorizer: Authorizer = (name, args, context) => {
    calls.push({ name, args, context });
    return decide(name, args, context);
  };
  return { authorizer, calls };
}

function denial(tool: string, decision: 'deny' | 'ask', detail: string) {
  const body = { error: 'authorization_required', tool, decision, detail };
  return {
    content: [{ type: 'text', text: JSON.stringify(body) }],
    structuredContent: body,
    isError: true,
  };
}

const NOTE_INPUT = {
  type: 'object',
  properties: { id: { type: 'string' } },
  required: ['id'],
  additionalProperties: false,
};

/* ----------------------------------------------------------------- fixtures */

@Injectable()
class NoteTools {
  readonly ran: string[] = [];

  @McpTool({ description: 'Read a note', input: NOTE_INPUT })
  read_note({ id }: { id: string }) {
    this.ran.push('read_note');
    return `note ${id}`;
  }

  @McpTool({ description: 'Archive a note', input: NOTE_INPUT })
  archive_note({ id }: { id: string }) {
    this.ran.push('archive_note');
    return `archived ${id}`;
  }

  @McpTool({ description: 'Fails with an internal error', input: { type: 'object' } })
  explode() {
    this.ran.push('explode');
    throw new Error('secret database password hunter2');
  }

  @McpTool({ description: 'Fails with a safe error', input: { type: 'object' } })
  refuse() {
    this.ran.push('refuse');
    throw new McpToolError('No note with id 7');
  }
}

@Injectable()
class ReadFixtures {
  @McpResource({ uri: 'notes://index', mimeType: 'text/plain' })
  index() {
    return 'index';
  }

  @McpResourceTemplate({ uriTemplate: 'notes://{id}', complete: { id: () => ['a', 'b'] } })
  note(_uri: string, { id }: Record<string, string>) {
    return `note ${id}`;
  }

  @McpPrompt({ description: 'Summarise a topic', arguments: [{ name: 'topic', required: true }] })
  summarise({ topic }: Record<string, string>) {
    return [{ role: 'user', content: { type: 'text', text: `Summarise ${topic}` } }];
  }

  @McpTool({ description: 'Search', input: { type: 'object' } })
  search() {
    return 'found';
  }
}

@Injectable()
class DestructiveTools {
  @McpTool({
    description: 'Deletes everything',
    input: { type: 'object' },
    annotations: { destructiveHint: true },
  })
  wipe_all() {
    return 'wiped';
  }
}

@Injectable()
class FlaggedSensitiveTools {
  @McpTool({ description: 'Reads secrets', input: { type: 'object' }, sensitive: true })
  read_secrets() {
    return 'secrets';
  }
}

@Injectable()
class ContradictoryHintTools {
  @McpTool({
    description: 'Claims read-only but destroys',
    input: { type: 'object' },
    annotations: { readOnlyHint: true, destructiveHint: true },
    sensitive: false,
  })
  sneaky_delete() {
    return 'gone';
  }

  @McpTool({
    description: 'Not destructive but sensitive',
    input: { type: 'object' },
    annotations: { destructiveHint: false },
    sensitive: true,
  })
  quiet_secret() {
    return 'psst';
  }
}

const guardLog: string[] = [];
let guardAllows = true;

@Injectable()
class RecordingGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    guardLog.push(`guard:${context.getType()}`);
    return guardAllows;
  }
}

const interceptorLog: string[] = [];

@Injectable()
class WrappingInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler) {
    interceptorLog.push(`before:${context.getType()}`);
    return next.handle().pipe(
      map((value) => {
        interceptorLog.push('after');
        return `wrapped(${value})`;
      }),
    );
  }
}

@Injectable()
class EnhancedTools {
  @McpTool({ description: 'Guarded tool', input: { type: 'object' } })
  @UseGuards(RecordingGuard)
  guarded() {
    guardLog.push('handler');
    return 'guarded ran';
  }

  @McpTool({ description: 'Intercepted tool', input: { type: 'object' } })
  @UseInterceptors(WrappingInterceptor)
  intercepted() {
    interceptorLog.push('handler');
    return 'inner';
  }
}

/* -------------------------------------------------------------------- tests */

describe('authorization', () => {
  let t: McpTestApp | undefined;

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  describe('Authorizers builders', () => {
    const ctx: AuthorizerContext = { connId: 'c', transport: 'unknown' };

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
        { name: 'read_note', args: raw, context: { connId: 'default', transport: 'unknown' } },
      ]);
    });

    it('builds the context {connId, transport} on the server (transport from options); nothing the client sends gets in', async () => {
      const { authorizer, calls } = recorder();
      t = await createMcpApp({ authorizer, transport: 'stdio' }, [NoteTools]);
      await t.initialize('conn-7', { experimental: { connId: { forged: {} } } });
      await t.request(
        'tools/call',
        {
          name: 'read_note',
          arguments: { id: 'n1', connId: 'forged', transport: 'http' },
          _meta: { connId: 'forged', transport: 'http', progressToken: 'p' },
        },
        'conn-7',
      );
      const call = calls.find((c) => c.name === 'read_note')!;
      expect(call.context).toEqual({ connId: 'conn-7', transport: 'stdio' });
      expect(Object.keys(call.context).sort()).toEqual(['connId', 'transport']);
    });

    it("defaults the context transport to 'unknown'", async () => {
      const { authorizer, calls } = recorder();
      t = await createMcpApp({ authorizer }, [NoteTools]);
      await t.callTool('read_note', { id: 'n1' }, 'conn-9');
      expect(calls[0].context).toEqual({ connId: 'conn-9', transport: 'unknown' });
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

  describe('read seam', () => {
    const cases: [string, object, Record<string, unknown>][] = [
      ['tools/list', {}, {}],
      ['resources/list', {}, {}],
      ['resources/templates/list', {}, {}],
      ['resources/read', { uri: 'notes://index' }, { uri: 'notes://index' }],
      ['resources/subscribe', { uri: 'notes://index' }, { uri: 'notes://index' }],
      ['resources/unsubscribe', { uri: 'notes://index' }, { uri: 'notes://index' }],
      ['prompts/list', {}, {}],
      [
        'prompts/get',
        { name: 'summarise', arguments: { topic: 'otters' } },
        { name: 'summarise', arguments: { topic: 'otters' } },
      ],
      [
        'completion/complete',
        { ref: { type: 'ref/prompt', name: 'summarise' }, argument: { name: 'topic', value: 'o' } },
        { ref: { type: 'ref/prompt', name: 'summarise' } },
      ],
    ];

    it.each(cases)(
      'gives the read authorizer %s and its documented args',
      async (method, params, args) => {
        const { authorizer, calls } = recorder();
        t = await createMcpApp({ readAuthorizer: authorizer, transport: 'stdio' }, [ReadFixtures]);
        const response = await t.request(method, params, 'reader');
        expect(response.error).toBeUndefined();
        const context = { connId: 'reader', transport: 'stdio' };
        // Completion also asks whether the caller may see what its ref names (prompts/get here).
        const visibility =
          method === 'completion/complete'
            ? [{ name: 'prompts/get', args: { name: 'summarise', arguments: {} }, context }]
            : [];
        expect(calls).toEqual([{ name: method, args, context }, ...visibility]);
      },
    );

    it.each(cases.map(([method, params]) => [method, params] as const))(
      'answers a denied %s with -31403 and the authorization_required data',
      async (method, params) => {
        t = await createMcpApp({ readAuthorizer: Authorizers.denyAll('no reads here') }, [
          ReadFixtures,
        ]);
        const response = await t.request(method, params);
        expect(response.result).toBeUndefined();
        expect(response.error).toEqual({
          code: -31403,
          message: `authorization_required: ${method}`,
          data: { error: 'authorization_required', method, detail: 'no reads here' },
        });
      },
    );

    it.each(cases.map(([method, params]) => [method, params] as const))(
      "denies an ask on %s with 'interactive_approval_unsupported' and never shows the prompt",
      async (method, params) => {
        const readAuthorizer: Authorizer = () => ({
          kind: 'ask',
          prompt: 'PROMPT-TEXT-Let the agent read?',
        });
        t = await createMcpApp({ readAuthorizer }, [ReadFixtures]);
        const response = await t.request(method, params);
        expect(response.error).toEqual({
          code: -31403,
          message: `authorization_required: ${method}`,
          data: {
            error: 'authorization_required',
            method,
            detail: 'interactive_approval_unsupported',
          },
        });
        expect(JSON.stringify(response)).not.toContain('PROMPT-TEXT');
      },
    );

    it('never denies reads because of a tool allowlist on the tool seam', async () => {
      t = await createMcpApp({ authorizer: Authorizers.allowlist(['nothing_here']) }, [
        ReadFixtures,
      ]);
      for (const [method, params] of cases) {
        const response = await t.request(method, params);
        expect({ method, error: response.error }).toEqual({ method, error: undefined });
      }
    });
  });

  describe('sensitive tools', () => {
    it('refuses to boot with a destructiveHint tool and no authorizer, naming the tool', async () => {
      const error = await bootFailure({}, [DestructiveTools]);
      expect(error.message).toContain('refuses to boot');
      expect(error.message).toContain('wipe_all');
    });

    it('refuses to boot with a sensitive: true tool and no authorizer, naming the tool', async () => {
      const error = await bootFailure({}, [FlaggedSensitiveTools]);
      expect(error.message).toContain('refuses to boot');
      expect(error.message).toContain('read_secrets');
    });

    it('counts destructiveHint true despite readOnlyHint true / sensitive false, and sensitive true despite destructiveHint false', async () => {
      const error = await bootFailure({}, [ContradictoryHintTools]);
      expect(error.message).toContain('refuses to boot');
      expect(error.message).toContain('sneaky_delete');
      expect(error.message).toContain('quiet_secret');
    });

    it('refuses to boot when only a read authorizer is set', async () => {
      const error = await bootFailure({ readAuthorizer: Authorizers.allowAll() }, [
        DestructiveTools,
      ]);
      expect(error.message).toContain('refuses to boot');
      expect(error.message).toContain('wipe_all');
    });

    it('boots and runs sensitive tools under any tool authorizer, even allowAll()', async () => {
      t = await createMcpApp({ authorizer: Authorizers.allowAll() }, [
        DestructiveTools,
        FlaggedSensitiveTools,
        ContradictoryHintTools,
      ]);
      expect(await t.callTool('wipe_all', {})).toEqual({
        content: [{ type: 'text', text: 'wiped' }],
      });
      expect(await t.callTool('read_secrets', {})).toEqual({
        content: [{ type: 'text', text: 'secrets' }],
      });
    });

    it("denies a sensitive tool registered at runtime with no authorizer ('sensitive_tool_unguarded')", async () => {
      t = await createMcpApp({}, [NoteTools]);
      let ran = false;
      t.app.get(McpRegistry).registerTool({
        name: 'drop_table',
        description: 'Drops a table',
        inputSchema: { type: 'object' },
        annotations: { destructiveHint: true },
        handler: () => {
          ran = true;
          return 'dropped';
        },
      });
      t.app.get(McpRegistry).registerTool({
        name: 'export_keys',
        description: 'Exports keys',
        inputSchema: { type: 'object' },
        sensitive: true,
        handler: () => {
          ran = true;
          return 'keys';
        },
      });
      expect(await t.callTool('drop_table', {})).toEqual(
        denial('drop_table', 'deny', 'sensitive_tool_unguarded'),
      );
      expect(await t.callTool('export_keys', {})).toEqual(
        denial('export_keys', 'deny', 'sensitive_tool_unguarded'),
      );
      expect(ran).toBe(false);
    });

    it('runs a sensitive tool registered at runtime when any authorizer is set', async () => {
      t = await createMcpApp({ authorizer: Authorizers.allowAll() }, [NoteTools]);
      t.app.get(McpRegistry).registerTool({
        name: 'drop_table',
        description: 'Drops a table',
        inputSchema: { type: 'object' },
        annotations: { destructiveHint: true },
        handler: () => 'dropped',
      });
      expect(await t.callTool('drop_table', {})).toEqual({
        content: [{ type: 'text', text: 'dropped' }],
      });
    });
  });

  describe('configured authorization', () => {
    it.each([
      [
        'allowAll + configured',
        true,
        { authorizer: Authorizers.allowAll(), authorizerSource: 'configured' },
      ],
      [
        'denyAll + default',
        false,
        { authorizer: Authorizers.denyAll(), authorizerSource: 'default' },
      ],
      ['denyAll, no source', false, { authorizer: Authorizers.denyAll() }],
      ['configured source without authorizer', false, { authorizerSource: 'configured' }],
      ['no authorizer at all', false, {}],
    ] as [string, boolean, Partial<McpModuleOptions>][])(
      'authorizationConfigured() with %s is %p',
      async (_label, expected, options) => {
        t = await createMcpApp(options, [NoteTools]);
        expect(t.server.authorizationConfigured()).toBe(expected);
      },
    );

    it('readAuthorizationConfigured() is true iff a read authorizer is set', async () => {
      t = await createMcpApp({ readAuthorizer: Authorizers.denyAll() }, [NoteTools]);
      expect(t.server.readAuthorizationConfigured()).toBe(true);
      await t.close();
      t = undefined;
      t = await createMcpApp(
        { authorizer: Authorizers.allowAll(), authorizerSource: 'configured' },
        [NoteTools],
      );
      expect(t.server.readAuthorizationConfigured()).toBe(false);
    });
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

      const base = { connId: 'aud', transport: 'stdio', time: expect.any(String) };
      expect(events).toEqual([
        { ...base, seam: 'tool', name: 'read_note', decision: 'allow' },
        { ...base, seam: 'tool', name: 'archive_note', decision: 'deny', detail: 'read-only' },
        { ...base, seam: 'tool', name: 'explode', decision: 'ask', detail: 'Really explode?' },
        { ...base, seam: 'read', name: 'resources/read', decision: 'allow' },
        { ...base, seam: 'read', name: 'prompts/list', decision: 'deny', detail: 'no prompts' },
      ]);
      for (const event of events) {
        expect(Number.isNaN(Date.parse(event.time))).toBe(false);
      }
    });
  });

  describe("users' own guards and interceptors", () => {
    beforeEach(() => {
      guardLog.length = 0;
      interceptorLog.length = 0;
      guardAllows = true;
    });

    it("runs a @UseGuards guard on an @McpTool method with context type 'mcp'", async () => {
      t = await createMcpApp({}, [EnhancedTools]);
      expect(await t.callTool('guarded', {})).toEqual({
        content: [{ type: 'text', text: 'guarded ran' }],
      });
      expect(guardLog).toEqual(['guard:mcp', 'handler']);
    });

    it("answers with the deny shape (detail 'forbidden') when the user's guard returns false", async () => {
      guardAllows = false;
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
