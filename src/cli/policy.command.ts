import { readCases, runCases } from '../mcp/policy/cases/policy-cases.js';
import { loadCedar } from '../mcp/policy/cedar/cedar.loader.js';
import { CedarPolicyEngine } from '../mcp/policy/cedar/cedar-policy.engine.js';
import type { PolicyTool } from '../mcp/policy/cedar/schema.generator.js';
import { McpPolicyError } from '../mcp/policy/policy.errors.js';
import type { McpCedarPolicyOptions } from '../mcp/policy/policy-options.interface.js';

/** One `mcp-warden policy …` run, its inputs already read. */
export interface PolicyCommand {
  readonly command: 'schema' | 'validate' | 'test';
  readonly tools: readonly PolicyTool[];
  /** The policy options the command mirrors (no hook: cases carry their own facts). */
  readonly options: Omit<McpCedarPolicyOptions, 'entities' | 'watch' | 'shadow'>;
  readonly cases?: string;
  readonly server: string;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/**
 * Runs a policy command with the same engine the server decides with: the schema generated
 * from the tools, strict validation, and decisions. Returns the exit status.
 */
export async function runPolicyCommand(run: PolicyCommand): Promise<number> {
  const cedar = await loadCedar();
  let engine: CedarPolicyEngine;
  try {
    engine = await CedarPolicyEngine.create(cedar, run.server, run.options, run.tools, {
      warn: (message) => run.err(`warning: ${message}`),
      error: (message) => run.err(message),
    });
  } catch (error) {
    if (!(error instanceof McpPolicyError)) throw error;
    for (const diagnostic of error.diagnostics) run.err(diagnostic);
    run.err(`${error.diagnostics.length} error(s): the policies do not validate`);
    return 1;
  }
  if (run.command === 'schema') {
    run.out(engine.schemaText());
    return 0;
  }
  if (run.command === 'validate') {
    run.out(`valid: policy set ${engine.version}`);
    return 0;
  }
  const results = await runCases(
    await readCases(run.cases!),
    (seam, name, args, context, extra) => engine.decide(seam, name, args, context, extra),
    run.server,
  );
  for (const result of results) {
    run.out(result.passed ? `✓ ${result.name}` : `✗ ${result.name}: ${result.problem}`);
  }
  const failed = results.filter((result) => !result.passed).length;
  run.out(`${results.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}
