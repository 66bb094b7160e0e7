import type { INestApplicationContext } from '@nestjs/common';
import { McpPolicy } from '../index.js';
import { readCases } from '../mcp/policy/cases/policy-cases.js';
import type { McpPolicyCaseResult } from '../mcp/policy/cases/policy-case.interface.js';

/**
 * Runs a policy cases file (the format `mcp-warden policy test` reads, docs/policy.md) against
 * the app's live registry and policy: the same decisions its seams take, with its own
 * `entities` hook. Resolves with every case's result; the caller asserts on them.
 *
 * @example
 * const results = await runPolicyCases(app, 'policies/notes.cases.yaml');
 * expect(results.filter((result) => !result.passed)).toEqual([]);
 */
export async function runPolicyCases(
  app: INestApplicationContext,
  casesFile: string,
): Promise<McpPolicyCaseResult[]> {
  const policy = app.get(McpPolicy, { strict: false }) as McpPolicy | null;
  if (!policy) throw new Error('runPolicyCases: the app sets no `policy` option');
  return policy.runCases(await readCases(casesFile));
}
