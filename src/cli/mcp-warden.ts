#!/usr/bin/env node
/*
 * The `mcp-warden` command. `policy`: policies are reviewed and tested like code, in CI, without
 * booting the app (docs/policy.md, "Testing policies"). `bundle`: a built server entry becomes
 * one file for a fast start (docs/stdio.md, "Cold start"). `audit`: verify and query the audit
 * records (docs/audit.md). Exit status 0 when everything
 * passes, 1 with each failure named, 2 for a usage error.
 */
import { readFile, stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { AUDIT_USAGE, runAuditCommand } from './audit.command.js';
import { BUNDLE_USAGE, runBundleCommand } from './bundle.command.js';
import { runPolicyCommand, type PolicyCommand } from './policy.command.js';

const USAGE = `Usage:
  mcp-warden policy schema   --tools <tools-list.json> [--namespace Mcp]
  mcp-warden policy validate <dir|file> --tools <tools-list.json>
  mcp-warden policy test     <dir|file> --tools <tools-list.json> --cases <cases.yaml|json>

Options that mirror McpPolicies.cedar({...}):
  --claim <attribute>=<claim>   a principal attribute from a token claim (repeatable)
  --groups-claim <claim>        the claim that lists the caller's groups
  --templates <dir|file>        Cedar templates
  --links <links.json>          their links ([{ templateId, newId, values }])
  --server <name>               the server's name (Mcp::Server id); default "server"

${BUNDLE_USAGE}
${AUDIT_USAGE}`;

/* `mcp-warden audit query … | head`: the reader closed the pipe, and wants no more lines. */
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'audit') {
    return runAuditCommand(
      argv.slice(1),
      (line) => process.stdout.write(`${line}\n`),
      (line) => process.stderr.write(`${line}\n`),
    );
  }
  if (argv[0] === 'bundle') {
    return runBundleCommand(
      argv.slice(1),
      (line) => process.stdout.write(`${line}\n`),
      (line) => process.stderr.write(`${line}\n`),
    );
  }
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      tools: { type: 'string' },
      cases: { type: 'string' },
      namespace: { type: 'string' },
      server: { type: 'string' },
      claim: { type: 'string', multiple: true },
      'groups-claim': { type: 'string' },
      templates: { type: 'string' },
      links: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [group, command, source] = positionals;
  if (values.help || group !== 'policy' || !isCommand(command)) {
    process.stderr.write(USAGE);
    return values.help ? 0 : 2;
  }
  if (values.namespace !== undefined && values.namespace !== 'Mcp') {
    process.stderr.write(
      'mcp-warden: only the Mcp namespace is generated (DESIGN of the vocabulary)\n',
    );
    return 2;
  }
  if (!values.tools || (command !== 'schema' && !source) || (command === 'test' && !values.cases)) {
    process.stderr.write(USAGE);
    return 2;
  }
  const tools = JSON.parse(await readFile(values.tools, 'utf8')) as { tools?: unknown };
  if (!Array.isArray(tools.tools)) {
    process.stderr.write(
      `mcp-warden: ${values.tools} is not a tools/list result ({ "tools": [...] })\n`,
    );
    return 2;
  }
  const claims: Record<string, string> = {};
  for (const pair of values.claim ?? []) {
    const [attribute, claim] = pair.split('=');
    if (!attribute || !claim) {
      process.stderr.write(`mcp-warden: --claim takes <attribute>=<claim>, not ${pair}\n`);
      return 2;
    }
    claims[attribute] = claim;
  }
  return runPolicyCommand({
    command,
    tools: tools.tools as PolicyCommand['tools'],
    options: {
      policies: source ? await sourceOf(source) : { text: '' },
      ...(values.templates ? { templates: await sourceOf(values.templates) } : {}),
      ...(values.links ? { links: JSON.parse(await readFile(values.links, 'utf8')) } : {}),
      ...(values['groups-claim'] ? { groupsClaim: values['groups-claim'] } : {}),
      ...(Object.keys(claims).length > 0 ? { claims } : {}),
    },
    cases: values.cases,
    server: values.server ?? 'server',
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  });
}

async function sourceOf(path: string): Promise<{ dir: string } | { file: string }> {
  return (await stat(path)).isDirectory() ? { dir: path } : { file: path };
}

function isCommand(value: string | undefined): value is PolicyCommand['command'] {
  return value === 'schema' || value === 'validate' || value === 'test';
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`mcp-warden: ${(error as Error)?.message ?? String(error)}\n`);
    process.exitCode = 2;
  },
);
