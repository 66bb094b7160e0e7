// tsconfig.examples.json does not include test/support, whose declaration of oidc-provider (a
// package without types) the console sign-in helper's imports need.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../support/oidc/oidc-provider.d.ts" />
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { decodeJwt } from 'jose';
import { filter, firstValueFrom } from 'rxjs';
import type { ExampleIssuer } from '../../examples/issuer/issuer.mjs';
import { AppModule } from '../../src/app/app.module.js';
import { NotesStore } from '../../src/app/notes/notes.store.js';
import { MCP_OPERATOR_DESK, type McpOperatorAsk, type McpOperatorDesk } from '../../src/index.js';
import { freePort } from '../auth/auth-app.js';
import { csrfOf } from '../operator/console-app.js';
import { signInThroughConsole } from '../operator/console-sign-in.js';
import { AuthorizationError, followAuthorization } from '../support/oidc/index.js';
import { loadOidcProvider } from '../support/oidc/load-provider.js';
import { createMemoryAdapter } from '../support/oidc/memory-adapter.js';
import { setProcessEnv } from '../support/process-env.js';
import { makeDataDir, removeDataDir } from '../support/stdio-child.js';

/*
 * examples/issuer: the local issuer docs/operator-console.md sets the console up with, in front
 * of the notes service configured from the environment exactly as the docs say. An agent gets a
 * JWT for the service by client credentials with the resource indicator and the service's
 * bearer auth accepts it; operators sign in to the console by authorization code with PKCE
 * (only the approvers get a session); an agent's delete of another's note waits until an
 * operator decides it through the console's decision API.
 */

const APPROVER = 'olivia';
/* An account named like the agent client: to the service, the same subject at the same issuer. */
const AGENT_ID = 'warden-agent';
/* The other agent, who writes the notes the first one deletes. */
const WRITER_ID = 'warden-writer';

let issuer: ExampleIssuer;
let dataDir: string;
let app: INestApplication;
let origin: string;
let resource: string;
let consoleUrl: string;
let restoreEnv: (() => void) | undefined;
const clients: Client[] = [];

beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  resource = `${origin}/mcp`;
  consoleUrl = `${origin}/approvals`;
  // Loaded first, so its import-time warning about the Node.js line is dropped (load-provider.ts).
  await loadOidcProvider();
  const { startExampleIssuer } = await import('../../examples/issuer/issuer.mjs');
  issuer = await startExampleIssuer({
    port: 0,
    resource,
    consoleRedirectUris: [`${consoleUrl}/callback`],
    agents: [{ clientId: AGENT_ID }, { clientId: WRITER_ID }],
    approvers: [APPROVER, AGENT_ID],
    adapter: createMemoryAdapter(),
  });
  dataDir = await makeDataDir();
  restoreEnv = setProcessEnv({
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    OAUTH_ISSUER: issuer.url,
    OAUTH_AUDIENCE: resource,
    // Unset: the service reads the keys from the issuer's metadata, as the docs' recipe does.
    OAUTH_JWKS_URI: undefined,
    APPROVALS_CLIENT_ID: issuer.consoleClient.clientId,
    APPROVALS_PUBLIC_URL: origin,
    APPROVALS_CLIENT_SECRET: undefined,
    APPROVALS_SCOPE: undefined,
    APPROVALS_WEBHOOK_URL: undefined,
    APPROVALS_WEBHOOK_SECRET: undefined,
  });
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forTransport('http')],
  }).compile();
  app = moduleRef.createNestApplication({ logger: false });
  await app.listen(port, '127.0.0.1');
});

afterAll(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await app?.close();
  await issuer?.close();
  await removeDataDir(dataDir);
  restoreEnv?.();
});

/** The token endpoint's answer to a client-credentials request of agent `clientId`. */
async function agentToken(params: Record<string, string>, clientId = AGENT_ID) {
  const { clientSecret } = issuer.agentClients.find((client) => client.clientId === clientId)!;
  const response = await fetch(`${issuer.url}/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', ...params }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

/** The status the MCP endpoint answers an `initialize` with `token` (or none) with. */
async function initializeStatus(token?: string): Promise<number> {
  const response = await fetch(resource, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'probe', version: '1.0.0' },
      },
    }),
  });
  await response.body?.cancel();
  return response.status;
}

/** An SDK client acting as agent `clientId`, with a token for the service. */
async function agent(clientId: string) {
  const { body } = await agentToken({ resource, scope: 'notes:read notes:write' }, clientId);
  const client = new Client({ name: clientId, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(resource), {
      requestInit: { headers: { authorization: `Bearer ${body.access_token}` } },
    }),
  );
  clients.push(client);
  return (name: string, args: Record<string, unknown>) =>
    client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
}

/** An operator signed in to the console: their cookie and the page's CSRF token. */
async function operator(account: string) {
  const signedIn = await signInThroughConsole(consoleUrl, account);
  expect(signedIn.status).toBe(303);
  const cookie = signedIn.cookie!;
  const page = await fetch(consoleUrl, { headers: { cookie } });
  expect(page.status).toBe(200);
  return { cookie, csrf: csrfOf(await page.text()) };
}

/** POSTs a decision as the console's page does, with what `headers` add or override. */
function decide(id: string, body: object, headers: Record<string, string>) {
  return fetch(`${consoleUrl}/asks/${encodeURIComponent(id)}/decision`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** A note the writer agent wrote, and the other agent's pending delete of it. */
async function pendingDelete() {
  const written = await (await agent(WRITER_ID))('create_note', { title: 'Plan', body: 'draft' });
  expect(written.structuredContent).toMatchObject({ author: WRITER_ID });
  const { id } = written.structuredContent as { id: string };
  const call = await agent(AGENT_ID);
  const desk = app.get<McpOperatorDesk>(MCP_OPERATOR_DESK);
  const asked = firstValueFrom(desk.events$.pipe(filter((event) => event.type === 'pending')));
  const result = call('delete_note', { id });
  const ask = ((await asked) as { ask: McpOperatorAsk }).ask;
  return { id, ask, result };
}

describe('examples/issuer in front of the notes service', () => {
  it('issues the agent a JWT for the service by client credentials, which the service accepts', async () => {
    const { status, body } = await agentToken({ resource, scope: 'notes:read notes:write' });
    expect(status).toBe(200);
    expect(decodeJwt(body.access_token)).toMatchObject({
      iss: issuer.url,
      aud: resource,
      sub: AGENT_ID,
      scope: 'notes:read notes:write',
    });
    expect(await initializeStatus(body.access_token)).toBe(200);
    expect(await initializeStatus()).toBe(401);
    // Without the resource indicator the token is opaque, for the issuer itself: refused.
    const opaque = await agentToken({});
    expect(opaque.status).toBe(200);
    expect(opaque.body.access_token.split('.')).toHaveLength(1);
    expect(await initializeStatus(opaque.body.access_token)).toBe(401);
  });

  it('refuses the agent another resource and the approver scope', async () => {
    const elsewhere = await agentToken({ resource: 'http://127.0.0.1:9/mcp' });
    expect(elsewhere).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
    const approve = await agentToken({ resource, scope: 'mcp:approve' });
    expect(approve).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
  });

  it('signs an approver in to the console by code with PKCE; anyone else gets no session', async () => {
    const approver = await signInThroughConsole(consoleUrl, APPROVER);
    expect(approver.status).toBe(303);
    expect(approver.cookie).toMatch(/^__Host-warden-console=/);
    const other = await signInThroughConsole(consoleUrl, 'mallory');
    expect(other.status).toBe(403);
    expect(other.cookie).toBeUndefined();
    expect(other.body).toContain('Not an approver');
    // The issuer refuses an authorization request without a PKCE challenge.
    const login = await fetch(`${consoleUrl}/login`, { redirect: 'manual' });
    const bare = new URL(login.headers.get('location')!);
    bare.searchParams.delete('code_challenge');
    bare.searchParams.delete('code_challenge_method');
    await login.body?.cancel();
    await expect(followAuthorization(bare)).rejects.toThrow(AuthorizationError);
  });

  it("an agent's delete of another's note waits until an operator approves it in the console", async () => {
    const { id, ask, result } = await pendingDelete();
    expect(ask.caller).toMatchObject({ subject: AGENT_ID, issuer: issuer.url });
    const { cookie, csrf } = await operator(APPROVER);
    const listed = await fetch(`${consoleUrl}/asks`, { headers: { cookie } });
    expect(((await listed.json()) as { asks: { id: string }[] }).asks.map((a) => a.id)).toContain(
      ask.id,
    );
    // Without the console's Origin (or without the token) the decision is refused.
    const bare = await decide(ask.id, { approve: true }, { cookie, 'x-csrf-token': csrf });
    expect(bare.status).toBe(403);
    expect(await bare.json()).toEqual({ problem: 'forbidden' });
    const approved = await decide(
      ask.id,
      { approve: true },
      { cookie, 'x-csrf-token': csrf, origin },
    );
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({
      ok: true,
      decision: { id: ask.id, approved: true, operator: APPROVER, caller: AGENT_ID },
    });
    expect((await result).content).toEqual([{ type: 'text', text: `Deleted note ${id}` }]);
    expect(await app.get(NotesStore).get(id)).toBeUndefined();
  });

  it('the agent cannot approve its own call; a deny needs a reason, which the agent sees', async () => {
    const { id, ask, result } = await pendingDelete();
    const self = await operator(AGENT_ID);
    const own = await decide(
      ask.id,
      { approve: true },
      { cookie: self.cookie, 'x-csrf-token': self.csrf, origin },
    );
    expect(own.status).toBe(403);
    expect(await own.json()).toEqual({ ok: false, problem: 'own call' });
    const { cookie, csrf } = await operator(APPROVER);
    const headers = { cookie, 'x-csrf-token': csrf, origin };
    const unexplained = await decide(ask.id, { approve: false }, headers);
    expect(unexplained.status).toBe(400);
    expect(await unexplained.json()).toEqual({ problem: 'reason required' });
    const denied = await decide(
      ask.id,
      { approve: false, reason: 'the writer still needs it' },
      headers,
    );
    expect(denied.status).toBe(200);
    expect((await result).structuredContent).toMatchObject({
      decision: 'ask',
      detail: 'operator denied: the writer still needs it',
    });
    expect(await app.get(NotesStore).get(id)).toBeDefined();
  });
});
