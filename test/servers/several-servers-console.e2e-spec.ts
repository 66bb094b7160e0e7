import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { filter, firstValueFrom } from 'rxjs';
import { MCP_OPERATOR_DESK, McpModule, type McpOperatorDesk } from '../../src/index.js';
import { serverTokenOf } from '../../src/mcp/core/servers/server-tokens.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import {
  consolePorts,
  csrfOf,
  CONSOLE_CLIENT_ID,
  ISSUER_SCOPES,
  signInThroughConsole,
} from '../operator/console-app.js';
import {
  adminOptions,
  bootTwoServers,
  partnerOptions,
  REFUND_PROMPT,
  resetRuns,
  runs,
  type TwoServers,
} from './two-servers-app.js';

/*
 * Two servers in one app, each with its operator console (docs/several-servers.md), operators
 * signing in at a real oidc-provider: an ask of one server shows on its console only, the
 * other's console cannot decide it, and a console session of one is not a session of the other.
 */

let issuer: TestIssuer;
let t: TwoServers;
let origin: string;
const consoles = { admin: '', partner: '' };
const clients: Client[] = [];

beforeAll(async () => {
  const [port] = await consolePorts(1);
  origin = `http://127.0.0.1:${port}`;
  consoles.admin = `${origin}/admin/approvals`;
  consoles.partner = `${origin}/partner/approvals`;
  issuer = await startTestIssuer({
    scopes: ISSUER_SCOPES,
    clients: [
      {
        clientId: CONSOLE_CLIENT_ID,
        authMethod: 'none',
        scope: ['openid', ...ISSUER_SCOPES].join(' '),
        redirectUris: [`${consoles.admin}/callback`, `${consoles.partner}/callback`],
      },
    ],
  });
  const serverOf = (name: 'admin' | 'partner') => {
    const options = name === 'admin' ? adminOptions : partnerOptions;
    const http = options().http!;
    return McpModule.forRoot(
      options({
        http: {
          ...http,
          auth: {
            issuer: issuer.issuer,
            audience: `${origin}${http.path}`,
            jwksUri: issuer.jwksUri,
          },
        },
        approvals: {
          console: {
            path: `/${name}/approvals`,
            oidc: { clientId: CONSOLE_CLIENT_ID, publicUrl: origin },
          },
        },
      }),
    );
  };
  t = await bootTwoServers(
    'express',
    { admin: serverOf('admin'), partner: serverOf('partner') },
    port,
  );
});
afterAll(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await t?.close();
  await issuer?.close();
});
beforeEach(resetRuns);

const desk = (name: string) => t.app.get<McpOperatorDesk>(serverTokenOf(MCP_OPERATOR_DESK, name));

async function operator(consoleUrl: string, subject = 'olivia') {
  const signedIn = await signInThroughConsole(consoleUrl, subject);
  const page = await fetch(consoleUrl, { headers: { cookie: signedIn.cookie! } });
  expect(page.status).toBe(200);
  const html = await page.text();
  return { cookie: signedIn.cookie!, csrf: csrfOf(html), html };
}

async function adminCaller(sub: string): Promise<Client> {
  const token = await issuer.mintToken({ aud: `${origin}/admin/mcp`, sub, scope: 'notes:write' });
  const client = new Client({ name: sub, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${origin}/admin/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
}

function decide(consoleUrl: string, id: string, who: { cookie: string; csrf: string }) {
  return fetch(`${consoleUrl}/asks/${encodeURIComponent(id)}/decision`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: who.cookie,
      origin,
      'x-csrf-token': who.csrf,
    },
    body: JSON.stringify({ approve: true }),
  });
}

it("an operator ask of admin shows on admin's console only, and only admin's console decides it", async () => {
  const caller = await adminCaller('alice');
  const pending = firstValueFrom(
    desk('admin').events$.pipe(filter((event) => event.type === 'pending')),
  );
  const call = caller.callTool({ name: 'refund', arguments: {} });
  const { ask } = (await pending) as { ask: { id: string } };

  const onPartner = await operator(consoles.partner);
  expect(onPartner.html).not.toContain(REFUND_PROMPT);
  expect(onPartner.html).not.toContain('refund');
  const refused = await decide(consoles.partner, ask.id, onPartner);
  expect(refused.status).toBe(404);
  expect(runs.refund).toBe(0);
  expect((await desk('admin').get(ask.id))?.decision).toBeUndefined();

  const onAdmin = await operator(consoles.admin);
  expect(onAdmin.html).toContain(REFUND_PROMPT);
  const taken = await decide(consoles.admin, ask.id, onAdmin);
  expect(taken.status).toBe(200);
  expect((await call).content).toEqual([{ type: 'text', text: 'refunded' }]);
  expect(runs.refund).toBe(1);
});

it("a console session of one server is not a session of the other's console", async () => {
  const onAdmin = await operator(consoles.admin);
  const elsewhere = await fetch(consoles.partner, {
    headers: { cookie: onAdmin.cookie },
    redirect: 'manual',
  });
  // Not signed in there: sent to sign in, never shown the page.
  expect(elsewhere.status).not.toBe(200);
  expect(await elsewhere.text()).not.toContain('data-csrf');
});

it('each server serves its protected resource metadata at its own resource, and its 401 points there', async () => {
  for (const name of ['admin', 'partner']) {
    const resource = `${origin}/${name}/mcp`;
    const metadata = await fetch(`${origin}/.well-known/oauth-protected-resource/${name}/mcp`);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({
      resource,
      authorization_servers: [issuer.issuer],
    });
    const refused = await fetch(resource, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{}',
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain(
      `resource_metadata="${origin}/.well-known/oauth-protected-resource/${name}/mcp"`,
    );
  }
});
