// The example issuer from the command line: `node examples/issuer/start.mjs`, then start the
// notes service with the lines it prints (docs/operator-console.md walks through it).
//
// Environment: ISSUER_PORT (default 4000; 0 picks one), MCP_RESOURCE (the MCP server's URL,
// default http://127.0.0.1:3000/mcp), CONSOLE_REDIRECT_URI (default: MCP_RESOURCE's origin with
// /approvals/callback), CONSOLE_CLIENT_SECRET (makes the console client confidential), AGENTS
// (comma-separated client ids, default warden-agent,warden-writer: two, so that one can delete
// what the other wrote), AGENT_CLIENT_SECRET (every agent's secret; default: random per agent),
// APPROVERS (comma-separated accounts holding the approver scope, default olivia). Ctrl-C (or
// SIGTERM) stops it.
import { startExampleIssuer } from './issuer.mjs';

const env = (name) => process.env[name]?.trim() || undefined;
const list = (value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
const resource = env('MCP_RESOURCE') ?? 'http://127.0.0.1:3000/mcp';
const approvers = list(env('APPROVERS') ?? 'olivia');
const agentSecret = env('AGENT_CLIENT_SECRET');

try {
  const issuer = await startExampleIssuer({
    port: Number(env('ISSUER_PORT') ?? 4000),
    resource,
    consoleRedirectUris: [
      env('CONSOLE_REDIRECT_URI') ?? new URL('/approvals/callback', resource).href,
    ],
    consoleClientSecret: env('CONSOLE_CLIENT_SECRET'),
    agents: list(env('AGENTS') ?? 'warden-agent,warden-writer').map((clientId) => ({
      clientId,
      clientSecret: agentSecret,
    })),
    approvers,
  });
  const { consoleClient, agentClients } = issuer;
  const tokenCommand = ({ clientId, clientSecret }) =>
    `  curl -s -u ${clientId}:${clientSecret} -d grant_type=client_credentials \\\n` +
    `    -d resource=${resource} ${issuer.url}/token`;
  process.stdout.write(
    [
      `issuer: ${issuer.url}`,
      `approvers: ${approvers.join(', ')}`,
      '',
      'Start the notes service with:',
      `  OAUTH_ISSUER=${issuer.url} OAUTH_AUDIENCE=${resource} \\`,
      `  APPROVALS_CLIENT_ID=${consoleClient.clientId} APPROVALS_PUBLIC_URL=${new URL(resource).origin} \\`,
      ...(consoleClient.clientSecret
        ? [`  APPROVALS_CLIENT_SECRET=${consoleClient.clientSecret} \\`]
        : []),
      '  npm start',
      '',
      'Agent tokens:',
      ...agentClients.map(tokenCommand),
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
