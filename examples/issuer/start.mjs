// The example issuer from the command line: `node examples/issuer/start.mjs`, then start the
// notes service with the lines it prints (docs/operator-console.md walks through it).
//
// Environment: ISSUER_PORT (default 4000; 0 picks one), MCP_RESOURCE (the MCP server's URL,
// default http://127.0.0.1:3000/mcp), CONSOLE_REDIRECT_URI (default: MCP_RESOURCE's origin with
// /approvals/callback), CONSOLE_CLIENT_SECRET (makes the console client confidential),
// AGENT_CLIENT_SECRET (default: random), APPROVERS (comma-separated accounts holding the
// approver scope, default olivia). Ctrl-C (or SIGTERM) stops it.
import { startExampleIssuer } from './issuer.mjs';

const env = (name) => process.env[name]?.trim() || undefined;
const resource = env('MCP_RESOURCE') ?? 'http://127.0.0.1:3000/mcp';
const approvers = (env('APPROVERS') ?? 'olivia').split(',').map((name) => name.trim());

try {
  const issuer = await startExampleIssuer({
    port: Number(env('ISSUER_PORT') ?? 4000),
    resource,
    consoleRedirectUris: [
      env('CONSOLE_REDIRECT_URI') ?? new URL('/approvals/callback', resource).href,
    ],
    consoleClientSecret: env('CONSOLE_CLIENT_SECRET'),
    agentClientSecret: env('AGENT_CLIENT_SECRET'),
    approvers: approvers.filter(Boolean),
  });
  const { consoleClient, agentClient } = issuer;
  process.stdout.write(
    [
      `issuer: ${issuer.url}`,
      `approvers: ${approvers.join(', ')}`,
      `agent client: ${agentClient.clientId} / ${agentClient.clientSecret}`,
      '',
      'Start the notes service with:',
      `OAUTH_ISSUER=${issuer.url} OAUTH_AUDIENCE=${resource} \\`,
      `APPROVALS_CLIENT_ID=${consoleClient.clientId} APPROVALS_PUBLIC_URL=${new URL(resource).origin} \\`,
      ...(consoleClient.clientSecret
        ? [`APPROVALS_CLIENT_SECRET=${consoleClient.clientSecret} \\`]
        : []),
      'npm start',
      '',
    ].join('\n'),
  );
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => void issuer.close().then(() => process.exit(0)));
  }
} catch (error) {
  process.stderr.write(`example issuer: ${error.message}\n`);
  process.exit(1);
}
