import { Authorizers, McpRegistry, type McpModuleOptions } from '../../src/index.js';
import { bootFailure, createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import {
  denial,
  NoteTools,
  DestructiveTools,
  FlaggedSensitiveTools,
  ContradictoryHintTools,
} from './authorization-app.js';

describe('authorization', () => {
  let t: McpTestApp | undefined;

  afterEach(async () => {
    await t?.close();
    t = undefined;
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
});
