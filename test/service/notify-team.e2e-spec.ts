import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppModule } from '../../src/app/app.module.js';
import { freePort } from '../auth/auth-app.js';
import { startTestIssuer, TOKEN_EXCHANGE_GRANT, type TestIssuer } from '../support/oidc/index.js';
import { setProcessEnv } from '../support/process-env.js';
import { makeDataDir, removeDataDir } from '../support/stdio-child.js';

/*
 * The notes service's optional team notifications (docs/notes-service.md): `notify_team` tells
 * the team's API about a note as its caller, with a token exchanged (RFC 8693) at a real
 * oidc-provider. The team API accepts only tokens signed for its audience, and records whom
 * they name and who acts for them. The real service module, configured from the environment.
 */

const TEAM_AUDIENCE = 'https://team.example/api';
const CLIENT_ID = 'notes-service';
const CLIENT_SECRET = 'notes-service-secret-do-not-leak';

interface Notice {
  readonly token: JWTPayload;
  readonly body: { note: { id: string; title: string }; message: string };
}

let issuer: TestIssuer;
let dataDir: string;
let app: INestApplication;
let url: string;
let team: { server: Server; url: string; notices: Notice[]; status: number };
let restoreEnv: (() => void) | undefined;
const clients: Client[] = [];

async function startTeamApi(): Promise<typeof team> {
  const keys = createRemoteJWKSet(new URL(issuer.jwksUri));
  const state = { notices: [] as Notice[], status: 202 };
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk));
    req.on('end', () => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      jwtVerify(token, keys, { issuer: issuer.issuer, audience: TEAM_AUDIENCE })
        .then(({ payload }) => {
          state.notices.push({ token: payload, body: JSON.parse(raw) });
          res.writeHead(state.status).end();
        })
        .catch(() => res.writeHead(401).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, { server, url: `http://127.0.0.1:${port}/notices` });
}

beforeAll(async () => {
  issuer = await startTestIssuer({
    tokenExchange: { audiences: { [TEAM_AUDIENCE]: ['team:notify'] } },
    clients: [
      {
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        authMethod: 'client_secret_basic',
        grantTypes: [TOKEN_EXCHANGE_GRANT],
      },
    ],
  });
  team = await startTeamApi();
  dataDir = await makeDataDir();
  const port = await freePort();
  url = `http://127.0.0.1:${port}/mcp`;
  restoreEnv = setProcessEnv({
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    OAUTH_ISSUER: issuer.issuer,
    OAUTH_AUDIENCE: url,
    OAUTH_JWKS_URI: issuer.jwksUri,
    NOTIFY_TEAM_URL: team.url,
    NOTIFY_TEAM_AUDIENCE: TEAM_AUDIENCE,
    NOTIFY_TEAM_SCOPE: 'team:notify',
    TOKEN_EXCHANGE_CLIENT_ID: CLIENT_ID,
    TOKEN_EXCHANGE_CLIENT_SECRET: CLIENT_SECRET,
  });
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forTransport('http')],
  }).compile();
  app = moduleRef.createNestApplication({ logger: false });
  await app.listen(port, '127.0.0.1');
});
afterAll(async () => {
  await app?.close();
  team?.server.close();
  await issuer?.close();
  await removeDataDir(dataDir);
  restoreEnv?.();
});
afterEach(async () => {
  team.status = 202;
  for (const client of clients.splice(0)) await client.close();
});

async function caller(sub: string): Promise<Client> {
  const token = await issuer.mintToken({ aud: url, sub, scope: 'notes:write' });
  const client = new Client({ name: sub, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
}

async function noteBy(client: Client, title: string): Promise<string> {
  const made = (await client.callTool({
    name: 'create_note',
    arguments: { title, body: 'body' },
  })) as CallToolResult;
  return (made.structuredContent as { id: string }).id;
}

const text = (result: unknown) =>
  (result as CallToolResult).content.map((c) => (c as { text?: string }).text).join('');

describe('the notes service: notify_team (token exchange, on)', () => {
  it('is served beside the notes tools', async () => {
    const alice = await caller('alice');
    const names = (await alice.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('notify_team');
  });

  it("tells the team's API about a note as its caller: sub the caller, the service the actor", async () => {
    const alice = await caller('alice');
    const id = await noteBy(alice, 'Release plan');
    const before = issuer.tokenExchanges.length;
    const result = await alice.callTool({
      name: 'notify_team',
      arguments: { id, message: 'please review' },
    });
    expect(text(result)).toBe(`Told the team about note ${id}`);
    expect(team.notices.at(-1)).toMatchObject({
      token: { sub: 'alice', act: { sub: CLIENT_ID }, scope: 'team:notify', aud: TEAM_AUDIENCE },
      body: { note: { id, title: 'Release plan' }, message: 'please review' },
    });
    expect(issuer.tokenExchanges.length).toBe(before + 1);
    // A second notice by the same caller reuses the exchanged token (the cache).
    await alice.callTool({ name: 'notify_team', arguments: { id } });
    expect(issuer.tokenExchanges.length).toBe(before + 1);
  });

  it('two callers get their own tokens: the team sees each as themselves', async () => {
    const [alice, bob] = [await caller('alice'), await caller('bob')];
    const id = await noteBy(alice, 'Shared');
    await bob.callTool({ name: 'notify_team', arguments: { id } });
    expect(team.notices.at(-1)?.token.sub).toBe('bob');
    await alice.callTool({ name: 'notify_team', arguments: { id } });
    expect(team.notices.at(-1)?.token.sub).toBe('alice');
  });

  it("a refusal of the team's API is the tool's error, with its status only", async () => {
    const alice = await caller('alice');
    const id = await noteBy(alice, 'Refused');
    team.status = 503;
    const result = (await alice.callTool({
      name: 'notify_team',
      arguments: { id },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('the team API answered 503');
  });

  it('an unknown note is said so, and nothing is sent', async () => {
    const alice = await caller('alice');
    const sent = team.notices.length;
    const result = (await alice.callTool({
      name: 'notify_team',
      arguments: { id: 'no-such-note' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('No note with id no-such-note');
    expect(team.notices.length).toBe(sent);
  });
});
