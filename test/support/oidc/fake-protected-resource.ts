import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';

/**
 * The smallest OAuth-protected MCP endpoint that the official SDK client completes its OAuth
 * flow against: it shows, in ~100 lines, what a resource server must do.
 *
 * - Every request to `path` needs `Authorization: Bearer <JWT>`, verified with jose against the
 *   issuer's JWKS (`iss` = issuer, `aud` = this resource). None or bad → 401 with
 *   `WWW-Authenticate: Bearer resource_metadata="<PRM URL>", scope="<scope>"` and a JSON-RPC
 *   error body. A token without `requiredScope` → 403 `error="insufficient_scope"`.
 * - RFC 9728 metadata at `/.well-known/oauth-protected-resource<path>` (and at the root
 *   well-known path): `{ resource, authorization_servers: [issuer], scopes_supported }`.
 * - A minimal MCP over JSON responses: `initialize`, notifications (202), `tools/list`, and a
 *   `whoami` tool answering the verified `sub`.
 */
export interface FakeProtectedResource {
  /** The MCP endpoint, `http://127.0.0.1:<port><path>`; also the resource indicator / `aud`. */
  readonly url: string;
  readonly resource: string;
  readonly metadataUrl: string;
  /** Every request: method, path, whether it carried a bearer token, and the status answered. */
  readonly requests: readonly {
    method: string;
    path: string;
    bearer: boolean;
    status: number;
  }[];
  /** The verified claims of every accepted token, in order. */
  readonly acceptedClaims: readonly JWTPayload[];
  close(): Promise<void>;
}

export interface FakeProtectedResourceOptions {
  issuer: string;
  jwksUri: string;
  /** The MCP path. Default '/mcp'. */
  path?: string;
  /** Scope advertised in the challenge and required on every request. Default 'notes:read'. */
  requiredScope?: string;
}

export async function startFakeProtectedResource(
  options: FakeProtectedResourceOptions,
): Promise<FakeProtectedResource> {
  const path = options.path ?? '/mcp';
  const requiredScope = options.requiredScope ?? 'notes:read';
  const jwks = createRemoteJWKSet(new URL(options.jwksUri));
  const requests: { method: string; path: string; bearer: boolean; status: number }[] = [];
  const acceptedClaims: JWTPayload[] = [];
  let origin = '';
  const resourceUrl = () => `${origin}${path}`;
  const metadataUrl = () => `${origin}/.well-known/oauth-protected-resource${path}`;

  const send = (res: ServerResponse, status: number, body?: unknown, headers = {}) => {
    res.writeHead(
      status,
      body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    );
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };

  const challenge = (res: ServerResponse, status: 401 | 403, error?: string) => {
    const params = [
      ...(error ? [`error="${error}"`] : []),
      `resource_metadata="${metadataUrl()}"`,
      `scope="${requiredScope}"`,
    ];
    send(
      res,
      status,
      { jsonrpc: '2.0', id: null, error: { code: -32001, message: error ?? 'unauthorized' } },
      { 'www-authenticate': `Bearer ${params.join(', ')}` },
    );
  };

  async function handle(req: IncomingMessage, res: ServerResponse, pathname: string) {
    if (
      req.method === 'GET' &&
      (pathname === `/.well-known/oauth-protected-resource${path}` ||
        pathname === '/.well-known/oauth-protected-resource')
    ) {
      send(res, 200, {
        resource: resourceUrl(),
        authorization_servers: [options.issuer],
        scopes_supported: [requiredScope],
        bearer_methods_supported: ['header'],
      });
      return;
    }
    if (pathname !== path) return send(res, 404, { error: 'not_found' });

    const match = /^Bearer ([^\s]+)$/.exec(req.headers.authorization ?? '');
    if (!match) return challenge(res, 401);
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(match[1], jwks, {
        issuer: options.issuer,
        audience: resourceUrl(),
      }));
    } catch {
      return challenge(res, 401, 'invalid_token');
    }
    const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ') : [];
    if (!scopes.includes(requiredScope)) return challenge(res, 403, 'insufficient_scope');
    acceptedClaims.push(claims);

    if (req.method !== 'POST') return send(res, 405, undefined, { allow: 'POST' });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      id?: string | number;
      method?: string;
      params?: { protocolVersion?: string; name?: string };
    };
    if (message.id === undefined) return send(res, 202);
    const reply = (result: unknown) => send(res, 200, { jsonrpc: '2.0', id: message.id, result });
    switch (message.method) {
      case 'initialize':
        return reply({
          protocolVersion: message.params?.protocolVersion ?? '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: 'fake-protected-resource', version: '0.0.0' },
        });
      case 'tools/list':
        return reply({
          tools: [{ name: 'whoami', description: 'The caller', inputSchema: { type: 'object' } }],
        });
      case 'tools/call':
        return reply({ content: [{ type: 'text', text: String(claims.sub) }] });
      default:
        return send(res, 200, {
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32601, message: `Method not found: ${message.method}` },
        });
    }
  }

  const server = createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    res.on('finish', () =>
      requests.push({
        method: req.method ?? 'GET',
        path: pathname,
        bearer: /^Bearer /.test(req.headers.authorization ?? ''),
        status: res.statusCode,
      }),
    );
    handle(req, res, pathname).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: String(error) });
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: resourceUrl(),
    resource: resourceUrl(),
    metadataUrl: metadataUrl(),
    requests,
    acceptedClaims,
    async close() {
      const closed = new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
      server.closeAllConnections();
      await closed;
    },
  };
}
