import { precompileCedar } from './cedar/cedar.precompiler.js';
import type { McpCedarPolicyOptions, McpPolicyConfig } from './policy-options.interface.js';

/**
 * Policy engines for the `policy` option, which decides both seams (docs/policy.md).
 *
 * @example
 * McpModule.forRoot({
 *   name: 'notes',
 *   version: '1.0.0',
 *   policy: McpPolicies.cedar({ policies: { dir: 'policies' }, watch: true }),
 * });
 * @publicApi
 */
export const McpPolicies = {
  /**
   * Cedar policies, validated against a schema generated from the registry. Declaring them
   * starts compiling the engine on a worker thread, so it is ready by the time Nest boots.
   */
  cedar(options: McpCedarPolicyOptions): McpPolicyConfig {
    void precompileCedar();
    return { engine: 'cedar', options };
  },
};
