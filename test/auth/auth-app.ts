import {
  Injectable,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
  type LoggerService,
} from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { freePort } from '../support/free-port.js';
import {
  Authorizers,
  McpExecutionContext,
  McpModule,
  McpTool,
  type Authorizer,
  type AuthorizerContext,
  type McpModuleOptions,
  type McpPrincipal,
  type McpToolContext,
} from '../../src/index.js';
import { deferred, type Deferred } from '../support/deferred.js';
import { SseParser, isMessage, type SseEvent } from '../support/sse-parser.mjs';
import { promptClose } from '../support/idle-sockets.js';

/*
 * The fixture of the identity suites: an MCP app over HTTP whose tools record
 * who called them (the tool context, a Nest guard, the authorizer), booted on
 * a port chosen before boot (the bearer audience names it), plus raw clients
 * for Streamable HTTP and the HTTP+SSE pair.
 */

export const ACCEPT_BOTH = 'application/json, text/event-stream';

/** What the tools, the guard and the authorizer saw; reset before every test. */
export const seen = {
  runs: [] as string[],
  tool: [] as (McpPrincipal | undefined)[],
  guard: [] as (McpPrincipal | undefined)[],
  authorizer: [] as { name: string; context: AuthorizerContext }[],
};

export function resetSeen(): void {
  seen.runs.length = 0;
  seen.tool.length = 0;
  seen.guard.length = 0;
  seen.authorizer.length = 0;
}

/** Records the principal a Nest guard on a tool method sees through `McpExecutionContext`. */
@Injectable()
export class PrincipalGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    seen.guard.push(McpExecutionContext.create(context).getPrincipal());
    return true;
  }
}

@Injectable()
export class AuthTools {
  @McpTool({ description: 'Say who is calling', input: { type: 'object' } })
  @UseGuards(PrincipalGuard)
  whoami(_args: object, ctx: McpToolContext) {
    seen.runs.push('whoami');
    seen.tool.push(ctx.principal);
    return ctx.principal?.subject ?? 'anonymous';
  }

  @McpTool({ description: 'Administer the notes', scopes: ['notes:admin'] })
  admin_notes() {
    seen.runs.push('admin_notes');
    return 'admin ran';
  }

  @McpTool({
    description: 'Drop the table (needs approval)',
    annotations: { destructiveHint: true },
  })
  drop_table() {
    seen.runs.push('drop_table');
    return 'table dropped';
  }
}

/** Records every context it is given; `drop_table` needs approval, the rest is allowed. */
export const recordingAuthorizer: Authorizer = (name, _args, context) => {
  seen.authorizer.push({ name, context });
  return name === 'drop_table'
    ? { kind: 'ask', prompt: 'Drop the whole table?' }
    : { kind: 'allow' };
};

/** The audience must name the port before the app boots (test/support/free-port.ts). */
export { freePort };

/** A Nest logger that keeps the warnings (and errors) it is given. */
export class RecordingLogger implements LoggerService {
  readonly warnings: string[] = [];
  readonly errors: string[] = [];
  log(): void {}
  warn(message: unknown): void {
    this.warnings.push(String(message));
  }
  error(message: unknown): void {
    this.errors.push(String(message));
  }
  debug(): void {}
  verbose(): void {}
}

export interface AuthAppSettings {
  /** Options over the defaults (configured seams, boot guard off, the recording authorizer). */
  options?: Partial<McpModuleOptions>;
  /** Listen on this port (default: a free one, chosen before boot and passed to `http`). */
  port?: number;
  host?: string;
  prefix?: string;
  logger?: LoggerService | false;
  /** Builds `http` once the port is known (for an audience naming it). */
  http?: (base: string) => McpModuleOptions['http'];
  /** Runs on the app before it listens (middleware, say). */
  configure?: (app: INestApplication) => void;
}

export async function compileAuthApp(
  options: Partial<McpModuleOptions>,
  logger: LoggerService | false = false,
): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      McpModule.forRoot({
        name: 'auth-test',
        version: '1.0.0',
        transport: 'http',
        authorizer: recordingAuthorizer,
        authorizerSource: 'configured',
        readAuthorizer: Authorizers.allowAll(),
        requireAuthorization: false,
        elicitationTimeoutMs: 10_000,
        ...options,
      }),
    ],
    providers: [AuthTools, PrincipalGuard],
  }).compile();
  return moduleRef.createNestApplication({ logger });
}

/** Boots the fixture on 127.0.0.1 at a port known before boot. */
export async function bootAuthApp(settings: AuthAppSettings = {}): Promise<AuthApp> {
  const port = settings.port ?? (await freePort());
  const base = `http://127.0.0.1:${port}`;
  const options: Partial<McpModuleOptions> = { ...settings.options };
  if (settings.http) options.http = { ...options.http, ...settings.http(base) };
  const app = await compileAuthApp(options, settings.logger ?? false);
  if (settings.prefix) app.setGlobalPrefix(settings.prefix);
  settings.configure?.(app);
  await app.listen(port, settings.host ?? '127.0.0.1');
  const prefix = settings.prefix ? `/${settings.prefix}` : '';
  return new AuthApp(app, base, prefix);
}

/** A JSON-RPC request. */
export const rpc = (id: number | string, method: string, params?: object) =>
  params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };

export const callTool = (id: number | string, name: string, args: object = {}, extra = {}) =>
  rpc(id, 'tools/call', { name, arguments: args, ...extra });

export const initializeParams = (capabilities: object = {}) => ({
  protocolVersion: '2025-11-25',
  capabilities,
  clientInfo: { name: 'auth-e2e', version: '1.0.0' },
});

export interface SendOptions {
  token?: string;
  session?: string;
  headers?: Record<string, string>;
}

/** The `Authorization` header for a bearer token, if any. */
export const bearer = (token?: string): Record<string, string> =>
  token === undefined ? {} : { authorization: `Bearer ${token}` };

/** A running fixture app with raw clients; `close()` aborts whatever the test left open. */
export class AuthApp {
  readonly mcpPath: string;
  readonly url: string;
  private readonly aborts = new Set<AbortController>();
  private readonly closeApp: () => Promise<void>;

  constructor(
    readonly app: INestApplication,
    readonly base: string,
    readonly prefix: string,
  ) {
    this.mcpPath = `${prefix}/mcp`;
    this.url = base + this.mcpPath;
    this.closeApp = promptClose(app);
  }

  fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const abort = new AbortController();
    this.aborts.add(abort);
    return fetch(this.base + path, { ...init, signal: abort.signal });
  }

  /** A Streamable HTTP request with conforming headers. */
  send(method: 'POST' | 'GET' | 'DELETE', body: unknown, o: SendOptions = {}): Promise<Response> {
    const headers: Record<string, string> = {
      accept: method === 'GET' ? 'text/event-stream' : ACCEPT_BOTH,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...bearer(o.token),
      ...(o.session ? { 'mcp-session-id': o.session } : {}),
      ...o.headers,
    };
    return this.fetch(this.mcpPath, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  post(body: unknown, o: SendOptions = {}): Promise<Response> {
    return this.send('POST', body, o);
  }

  /** Initializes a Streamable HTTP session for `token`; its id. */
  async initialize(token?: string, capabilities: object = {}): Promise<string> {
    const response = await this.post(rpc(0, 'initialize', initializeParams(capabilities)), {
      token,
    });
    if (response.status !== 200) {
      throw new Error(`initialize: HTTP ${response.status} ${await response.text()}`);
    }
    const session = response.headers.get('mcp-session-id')!;
    await response.arrayBuffer();
    const initialized = await this.post(
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { token, session },
    );
    expectStatus(initialized, 202);
    await initialized.arrayBuffer();
    return session;
  }

  /** One request on a session, answered as plain JSON; the parsed body. */
  async request(body: object, o: SendOptions): Promise<any> {
    const response = await this.post(body, o);
    if (response.status !== 200) {
      throw new Error(`HTTP ${response.status}: ${await response.text()}`);
    }
    return response.json();
  }

  /** Opens an SSE pair `GET /sse` stream for `token` (the response may be a refusal). */
  openSse(token?: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.fetch(`${this.prefix}/sse`, {
      headers: { accept: 'text/event-stream', ...bearer(token), ...headers },
    });
  }

  /** Opens an SSE pair session: its stream and its announced `/messages?sessionId=` path. */
  async ssePair(token?: string): Promise<SsePairSession> {
    const response = await this.openSse(token);
    if (response.status !== 200) throw new Error(`GET /sse: HTTP ${response.status}`);
    const stream = new SseReader(response);
    const endpoint = await stream.next((event) => event.event === 'endpoint');
    return new SsePairSession(this, stream, endpoint.data);
  }

  /** POSTs to an SSE pair messages path. */
  postMessage(path: string, body: unknown, token?: string): Promise<Response> {
    return this.fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(token) },
      body: JSON.stringify(body),
    });
  }

  async close(): Promise<void> {
    for (const abort of this.aborts) abort.abort();
    await this.closeApp();
  }
}

/** A HTTP+SSE pair session: the stream, and POSTs to its messages path. */
export class SsePairSession {
  constructor(
    private readonly t: AuthApp,
    readonly stream: SseReader,
    readonly endpoint: string,
  ) {}

  get sessionId(): string {
    return new URL(this.endpoint, 'http://x').searchParams.get('sessionId')!;
  }

  post(body: unknown, token?: string): Promise<Response> {
    return this.t.postMessage(this.endpoint, body, token);
  }

  /** Sends a request (202) and resolves with its answer from the stream. */
  async request(body: { id: number | string }, token?: string): Promise<any> {
    const answer = this.stream.message((m) => m.id === body.id && m.method === undefined);
    const posted = await this.post(body, token);
    expectStatus(posted, 202);
    await posted.arrayBuffer();
    return answer;
  }
}

/** Reads an SSE body as events arrive; waiters resolve on a match, reject if the stream ends. */
export class SseReader {
  readonly events: SseEvent[] = [];
  readonly ended: Promise<void>;
  private waiters: { test: (e: SseEvent) => boolean; settle: Deferred<SseEvent> }[] = [];
  private done = false;

  constructor(readonly response: Response) {
    this.ended = this.pump(response.body!);
  }

  next(test: (event: SseEvent) => boolean): Promise<SseEvent> {
    const found = this.events.find(test);
    if (found) return Promise.resolve(found);
    if (this.done) return Promise.reject(new Error('the stream ended'));
    const settle = deferred<SseEvent>();
    this.waiters.push({ test, settle });
    return settle.promise;
  }

  async message(test: (message: any) => boolean): Promise<any> {
    const event = await this.next((e) => isMessage(e) && test(JSON.parse(e.data)));
    return JSON.parse(event.data);
  }

  get messages(): any[] {
    return this.events.filter(isMessage).map((e) => JSON.parse(e.data));
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    const parser = new SseParser();
    const reader = body.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const event of parser.push(decoder.decode(value, { stream: true }))) {
          this.events.push(event);
          this.waiters = this.waiters.filter((w) => {
            if (!w.test(event)) return true;
            w.settle.resolve(event);
            return false;
          });
        }
      }
    } catch {
      // Aborted: the test (or close()) let go of the stream.
    }
    this.done = true;
    for (const w of this.waiters.splice(0)) w.settle.reject(new Error('the stream ended'));
  }
}

export function expectStatus(response: Response, status: number): void {
  if (response.status !== status) {
    throw new Error(`expected HTTP ${status}, got ${response.status}`);
  }
}

/**
 * The body of every MCP HTTP refusal: a JSON-RPC error whose id is `id` (the
 * refused request's once the POST body was read; null before that, as for a 401).
 */
export const errorBody = (code?: number, id: number | string | null = null) => ({
  jsonrpc: '2.0',
  id,
  error: expect.objectContaining({
    code: code ?? expect.any(Number),
    message: expect.any(String),
  }) as unknown,
});

/** The tool-deny result of §4. */
export function denial(tool: string, decision: 'deny' | 'ask', detail: string) {
  const body = { error: 'authorization_required', tool, decision, detail };
  return {
    content: [{ type: 'text', text: JSON.stringify(body) }],
    structuredContent: body,
    isError: true,
  };
}

/** Parses a `WWW-Authenticate: Bearer k="v", …` challenge into its parameters. */
export function parseChallenge(header: string | null): Record<string, string> {
  if (!header) throw new Error('no WWW-Authenticate header');
  const match = /^Bearer(?:\s+(.*))?$/.exec(header);
  if (!match) throw new Error(`not a Bearer challenge: ${header}`);
  const params: Record<string, string> = {};
  for (const [, name, value] of (match[1] ?? '').matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)) {
    params[name] = value.replace(/\\(.)/g, '$1');
  }
  return params;
}
