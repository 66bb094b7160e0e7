// The in-process policy probes' app: a Nest application context (no transport, no socket) whose
// `McpModule` decides with a Cedar policy, and tools registered at runtime through McpRegistry,
// so a probe can call `McpPolicy` directly and time nothing but the policy.
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpModule, McpPolicies, McpPolicy, McpRegistry } from '../../dist/index.js';

class PolicyProbeModule {}
Module({})(PolicyProbeModule);

/**
 * Boots the app with `tools` (`{ name, inputSchema }`, each echoing its `text`) and `policy`
 * (the options of `McpPolicies.cedar`); resolves `{ app, policy }` once the set is applied.
 */
export async function bootPolicyApp(tools, policy) {
  const register = (registry) => {
    for (const { name, inputSchema } of tools) {
      registry.registerTool({
        name,
        description: `Echo the text (${name})`,
        inputSchema,
        handler: ({ text }) => String(text),
      });
    }
    return true;
  };
  const app = await NestFactory.createApplicationContext(
    {
      module: PolicyProbeModule,
      imports: [
        McpModule.forRoot({
          name: 'warden-echo',
          version: '1.0.0',
          transport: 'stdio',
          policy: McpPolicies.cedar(policy),
        }),
      ],
      providers: [{ provide: 'bench-policy-tools', useFactory: register, inject: [McpRegistry] }],
    },
    { logger: ['error'] },
  );
  await app.init();
  return { app, policy: app.get(McpPolicy) };
}

/** The context of one `tools/call` decision: an authenticated caller on stdio. */
export const CALL_CONTEXT = {
  connId: 'bench',
  transport: 'stdio',
  era: 'legacy',
  purpose: 'call',
  principal: { subject: 'bench-user', scopes: ['notes:read', 'notes:write'] },
};
