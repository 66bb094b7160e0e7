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
  /** Cedar policies, validated against a schema generated from the registry. */
  cedar(options: McpCedarPolicyOptions): McpPolicyConfig {
    return { engine: 'cedar', options };
  },
};
