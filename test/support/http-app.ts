import type { INestApplication, Provider } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import {
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { McpModule, type McpModuleOptions } from '../../src/index.js';
import { bootOutcome } from './boot-outcome.js';
import { SseReader } from './http-sse.js';
import { promptClose } from './idle-sockets.js';

/** The Accept value every Streamable HTTP POST of a conforming client carries. */
export const ACCEPT_BOTH = 'application/json, text/event-stream';

/** What a raw client sends at `initialize` unless a test says otherwise. */
export function initializeParams(protocolVersion = '2025-11-25', capabilities: object = {}) {
  return { protocolVersion, capabilities, clientInfo: { name: 'jest-http', version: '1.0.0' } };
}

/** The HTTP adapters every HTTP suite runs on (as throttler runs its e2e). */
export type AdapterName = 'express' | 'fastify';
export const ADAPTERS: readonly AdapterName[] = ['express', 'fastify'];

/**
 * How an MCP request reaches its endpoint: on Express, through the fast path
 * (the default when nothing is in front of the routes) or through Express's
 * router with `http.fastPath: false` (body-parser bypass and route binder);
 * on Fastify, ahead of Fastify from the second request (the fast path), the first from the
 * `preParsing` hook.
 */
export type HttpVariant = AdapterName | 'express (no fast path)';
export const HTTP_VARIANTS: readonly HttpVariant[] = [
  'express',
  'express (no fast path)',
  'fastify',
];

/** The adapter a variant runs on, and the module options it implies. */
function variantOptions(
  variant: HttpVariant,
  options: Partial<McpModuleOptions>,
): { adapter: AdapterName; options: Partial<McpModuleOptions> } {
  if (variant !== 'express (no fast path)') return { adapter: variant, options };
  return {
    adapter: 'express',
    options: { ...options, http: { ...options.http, fastPath: false } },
  };
}

async function compile(
  variant: HttpVariant,
  options: Partial<McpModuleOptions>,
  providers: Provider[],
): Promise<INestApplication> {
  const resolved = variantOptions(variant, options);
  const moduleRef = await Test.createTestingModule({
    imports: [
      McpModule.forRoot({
        name: 'http-test',
        version: '1.0.0',
        transport: 'http',
        // These apps test the wire, not the boot check, and most have no seams: they say so.
        // The boot guard's suites pass requireAuthorization themselves (true, or undefined for
        // the default).
        requireAuthorization: false,
        ...resolved.options,
      }),
    ],
    providers,
  }).compile();
  return resolved.adapter === 'fastify'
    ? moduleRef.createNestApplication(new FastifyAdapter(), { logger: false })
    : moduleRef.createNestApplication({ logger: false });
}

/** Boots an HTTP app on `adapter` (Express unless given) on port `listenOn` of loopback (a free one unless given). */
export async function createHttpApp(
  options: Partial<McpModuleOptions>,
  providers: Provider[] = [],
  adapter: HttpVariant = 'express',
  listenOn = 0,
): Promise<HttpTestApp> {
  const app = await compile(adapter, options, providers);
  await app.listen(listenOn, '127.0.0.1');
  // getUrl() may name [::1]; the server is bound to 127.0.0.1, so build the URL from the port.
  const { port } = app.getHttpServer().address() as AddressInfo;
  return new HttpTestApp(app, port, options.http?.path ?? '/mcp');
}

/** Builds an HTTP app on `adapter` and runs `app.init()`: the rejection, or undefined when it booted. */
export async function httpBootOutcome(
  options: Partial<McpModuleOptions>,
  providers: Provider[] = [],
  adapter: HttpVariant = 'express',
): Promise<Error | undefined> {
  return bootOutcome(await compile(adapter, options, providers));
}

/** The result of a request made with node:http (full control over Host and Accept). */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A running HTTP test app plus raw-client helpers. Every fetch it makes is
 * tracked so `close()` can abort streams the test left open (an open response
 * would otherwise keep the server from closing).
 */
export class HttpTestApp {
  readonly base: string;
  readonly url: string;
  private readonly aborts = new Set<AbortController>();
  private socketCloseWaiters: (() => void)[] = [];
  private nextId = 1;
  private closing?: Promise<void>;
  private readonly closeApp: () => Promise<void>;

  constructor(
    readonly app: INestApplication,
    readonly port: number,
    path: string,
  ) {
    this.base = `http://127.0.0.1:${port}`;
    this.url = this.base + path;
    const server = app.getHttpServer() as Server;
    // The responses each connection still owes: one cut while it does is a client gone
    // mid-response; one that closes owing none is a keep-alive connection timing out.
    const owed = new WeakMap<Socket, number>();
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      owed.set(req.socket, (owed.get(req.socket) ?? 0) + 1);
      res.once('finish', () => owed.set(req.socket, (owed.get(req.socket) ?? 1) - 1));
    });
    server.on('connection', (socket: Socket) =>
      socket.once('close', () => {
        if (!owed.get(socket)) return;
        for (const resolveClose of this.socketCloseWaiters.splice(0)) resolveClose();
      }),
    );
    this.closeApp = promptClose(app);
  }

  /**
   * The same app at another MCP path (an app with several servers): the view
   * shares this one's open fetches, and closing either closes the app.
   */
  at(path: string): HttpTestApp {
    const view = Object.create(this) as HttpTestApp;
    return Object.defineProperty(view, 'url', { value: this.base + path });
  }

  /**
   * Resolves when the server next sees a client connection close while a
   * response on it was still open (a stream, a parked call): not when an idle
   * keep-alive connection times out. Awaiting it after aborting a stream means
   * the server has run its close handlers.
   */
  nextSocketClose(): Promise<void> {
    return new Promise((resolveClose) => this.socketCloseWaiters.push(resolveClose));
  }

  /** `fetch` relative to the app; aborted by `close()` if still open. */
  fetch(path: string, init: RequestInit = {}, abort = new AbortController()): Promise<Response> {
    this.aborts.add(abort);
    return fetch(this.base + path, { ...init, signal: abort.signal });
  }

  /** POSTs `body` (serialized unless a string) to the MCP endpoint with conforming headers. */
  post(
    body: unknown,
    headers: Record<string, string> = {},
    abort?: AbortController,
  ): Promise<Response> {
    return this.fetch(
      new URL(this.url).pathname,
      {
        method: 'POST',
        headers: { accept: ACCEPT_BOTH, 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      },
      abort,
    );
  }

  /** A JSON-RPC request with a fresh numeric id. */
  message(method: string, params?: object, id: number | string = this.nextId++) {
    return params === undefined
      ? { jsonrpc: '2.0', id, method }
      : { jsonrpc: '2.0', id, method, params };
  }

  /**
   * Initializes a session (and sends `notifications/initialized`); resolves
   * to its id and the initialize response body.
   */
  async initialize(
    protocolVersion = '2025-11-25',
    capabilities: object = {},
  ): Promise<{ sessionId: string; body: any }> {
    const response = await this.post(
      this.message('initialize', initializeParams(protocolVersion, capabilities)),
    );
    if (response.status !== 200) {
      throw new Error(`initialize: HTTP ${response.status} ${await response.text()}`);
    }
    const sessionId = response.headers.get('mcp-session-id');
    if (!sessionId) throw new Error('initialize: no mcp-session-id header');
    const body = await response.json();
    const initialized = await this.post(
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { 'mcp-session-id': sessionId },
    );
    if (initialized.status !== 202) throw new Error(`initialized: HTTP ${initialized.status}`);
    return { sessionId, body };
  }

  /** Opens a GET on the MCP endpoint (the standalone stream, or a resumed one). */
  get(sessionId: string, headers: Record<string, string> = {}, abort?: AbortController) {
    return this.fetch(
      new URL(this.url).pathname,
      {
        method: 'GET',
        headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, ...headers },
      },
      abort,
    );
  }

  /** Opens the session's standalone stream and returns its reader (fails unless 200 SSE). */
  async openStandalone(sessionId: string, abort?: AbortController): Promise<SseReader> {
    const response = await this.get(sessionId, {}, abort);
    if (response.status !== 200) {
      throw new Error(`GET stream: HTTP ${response.status} ${await response.text()}`);
    }
    return new SseReader(response);
  }

  /**
   * A request through node:http, which (unlike fetch) lets a test set `Host`
   * and send no `Accept` at all. Headers are sent exactly as given.
   */
  raw(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: this.port,
          method,
          path,
          headers,
          setHost: !('host' in headers),
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.once('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
          );
          res.once('error', reject);
        },
      );
      req.once('error', reject);
      req.end(body);
    });
  }

  /**
   * Aborts every fetch still open, then closes the app. Idempotent: a test
   * that closed the app itself leaves `afterEach` nothing to do.
   */
  close(): Promise<void> {
    if (!this.closing) {
      for (const abort of this.aborts) abort.abort();
      this.aborts.clear();
      this.closing = this.closeApp();
    }
    return this.closing;
  }
}
