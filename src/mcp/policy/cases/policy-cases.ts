import { readFile } from 'node:fs/promises';
import type { AuthorizerContext } from '../../authorization/authorizer.interface.js';
import type { McpPrincipal } from '../../authentication/principal.interface.js';
import type { EngineVerdict } from '../cedar/cedar-policy.engine.js';
import { ENTITY } from '../cedar/vocabulary.js';
import type { McpCedarEntity, McpCedarUid } from '../policy-options.interface.js';
import type { McpPolicyCase, McpPolicyCaseResult } from './policy-case.interface.js';

/** Decides one case; the CLI's engine and a live app's `McpPolicy` both can. */
export type CaseDecider = (
  seam: 'tool' | 'read',
  name: string,
  args: Record<string, unknown>,
  context: AuthorizerContext,
  extra: readonly McpCedarEntity[],
) => Promise<EngineVerdict> | EngineVerdict;

/** Reads a cases file: YAML (`.yaml`, `.yml`) or JSON, a list of cases. */
export async function readCases(file: string): Promise<McpPolicyCase[]> {
  const text = await readFile(file, 'utf8');
  const parsed: unknown = /\.ya?ml$/i.test(file)
    ? (await import('yaml')).parse(text)
    : JSON.parse(text);
  if (!Array.isArray(parsed)) throw new Error(`${file}: a cases file is a list of cases`);
  return parsed.map((entry, index) => checkedCase(entry, `${file}[${index}]`));
}

/** Runs every case; a case that cannot be decided fails with why. */
export async function runCases(
  cases: readonly McpPolicyCase[],
  decide: CaseDecider,
  serverName: string,
  transport: AuthorizerContext['transport'] = 'http',
): Promise<McpPolicyCaseResult[]> {
  const results: McpPolicyCaseResult[] = [];
  for (const entry of cases) {
    const principal = principalOf(entry);
    const context: AuthorizerContext = {
      connId: 'policy-case',
      transport,
      era: 'legacy',
      purpose: 'call',
      ...(principal ? { principal } : {}),
    };
    const seam = entry.tool !== undefined ? 'tool' : 'read';
    const name = entry.tool ?? entry.method!;
    const extra = extraEntities(entry, seam, name, serverName);
    const { verdict } = await decide(seam, name, { ...(entry.arguments ?? {}) }, context, extra);
    results.push(judge(entry, verdict.decision, verdict.policies));
  }
  return results;
}

function judge(
  entry: McpPolicyCase,
  decision: EngineVerdict['verdict']['decision'],
  policies: readonly string[],
): McpPolicyCaseResult {
  const actual =
    decision.kind === 'ask'
      ? `ask (${decision.approver ?? 'caller'})`
      : decision.kind === 'deny'
        ? `deny (${decision.reason})`
        : 'allow';
  const problems: string[] = [];
  if (decision.kind !== entry.expect) problems.push(`expected ${entry.expect}, got ${actual}`);
  if (
    entry.approver &&
    decision.kind === 'ask' &&
    (decision.approver ?? 'caller') !== entry.approver
  ) {
    problems.push(`expected approver ${entry.approver}, got ${decision.approver ?? 'caller'}`);
  }
  if (entry.reason && decision.kind === 'deny' && decision.reason !== entry.reason) {
    problems.push(`expected reason ${entry.reason}, got ${decision.reason}`);
  }
  if (entry.policies && !sameSet(entry.policies, policies)) {
    problems.push(`expected policies [${entry.policies.join(', ')}], got [${policies.join(', ')}]`);
  }
  return {
    name: entry.name,
    passed: problems.length === 0,
    actual,
    policies,
    ...(problems.length > 0 ? { problem: problems.join('; ') } : {}),
  };
}

function principalOf(entry: McpPolicyCase): McpPrincipal | undefined {
  if (!entry.principal) return undefined;
  const { subject, issuer, scopes, claims } = entry.principal;
  return {
    subject,
    scopes: [...(scopes ?? [])],
    ...(issuer !== undefined ? { issuer } : {}),
    ...(claims ? { claims } : {}),
  };
}

/* The case's groups become the principal's parents; its tags go on the resource. */
function extraEntities(
  entry: McpPolicyCase,
  seam: 'tool' | 'read',
  name: string,
  serverName: string,
): McpCedarEntity[] {
  const extra: McpCedarEntity[] = [];
  if (entry.principal?.groups?.length) {
    extra.push({
      uid: { type: ENTITY.user, id: entry.principal.subject },
      parents: entry.principal.groups.map((id) => ({ type: ENTITY.group, id })),
    });
  }
  if (entry.tags) {
    extra.push({ uid: resourceOf(entry, seam, name, serverName), tags: { ...entry.tags } });
  }
  return extra;
}

function resourceOf(
  entry: McpPolicyCase,
  seam: 'tool' | 'read',
  name: string,
  serverName: string,
): McpCedarUid {
  const args = entry.arguments ?? {};
  if (seam === 'read' && name.startsWith('resources/') && typeof args.uri === 'string') {
    return { type: ENTITY.resource, id: args.uri };
  }
  if (seam === 'read' && name === 'prompts/get' && typeof args.name === 'string') {
    return { type: ENTITY.prompt, id: args.name };
  }
  return { type: ENTITY.server, id: serverName };
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().every((id, index) => id === [...b].sort()[index]);
}

function checkedCase(entry: unknown, where: string): McpPolicyCase {
  const value = entry as Partial<McpPolicyCase> | null;
  if (!value || typeof value !== 'object') throw new Error(`${where}: a case is an object`);
  if (typeof value.name !== 'string') throw new Error(`${where}: \`name\` is required`);
  if ((value.tool === undefined) === (value.method === undefined)) {
    throw new Error(`${where} (${value.name}): give exactly one of \`tool\` and \`method\``);
  }
  if (!['allow', 'ask', 'deny'].includes(value.expect as string)) {
    throw new Error(`${where} (${value.name}): \`expect\` is allow, ask or deny`);
  }
  if (value.principal !== null && typeof value.principal?.subject !== 'string') {
    throw new Error(`${where} (${value.name}): \`principal\` is null or has a \`subject\``);
  }
  return value as McpPolicyCase;
}
