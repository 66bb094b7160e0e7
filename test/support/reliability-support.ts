import { connect, type Socket } from 'node:net';
import type { Server } from 'node:http';
import { request as httpRequest } from 'node:http';

// Kept here too: the reliability suites import it from this module.
export { deferred, type Deferred } from './deferred.js';

/*
 * Shared by the reliability suites (fuzz, faults, security, soak): the error
 * codes the server may use, the leak check, a deferred, a recorder of
 * unhandled rejections, and raw HTTP helpers for requests fetch cannot make.
 */

/** Every JSON-RPC error code the server may answer with (docs/providers.md, error-codes.constants.ts). */
export const ALLOWED_ERROR_CODES: ReadonlySet<number> = new Set([
  -32700, -32600, -32601, -32602, -32603, -31403, -31429, -31504, -32002,
]);

/** Text that would betray a stack trace or a source path in a response. */
export const LEAK_MARKERS = ['    at ', '.ts:', '.js:', 'node_modules'] as const;

/** What the fuzz app's failing handlers and authorizers throw: it must never reach a client. */
export const INTERNAL_SECRET = 'INTERNAL-SECRET-7f3a';

/**
 * The leak markers (and the internal secret) found in `output` that were not
 * already in `input` (a server may echo what the client sent, e.g. a method
 * name in "Method not found").
 */
export function leaksIn(output: string, input = ''): string[] {
  return [...LEAK_MARKERS, INTERNAL_SECRET].filter(
    (marker) => output.includes(marker) && !input.includes(marker),
  );
}

/**
 * Resolves with `promise`, or rejects after `ms` with `what` in the message.
 * Only for bounds where elapsed time is the property under test (a call must
 * be answered within its timeout), never as synchronisation.
 */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Records `unhandledRejection` events while installed. Note: jest-circus also
 * fails the running test on an unhandled rejection (it listens on the parent
 * process), so this is a second line of defence in-process; the stdio fault
 * fixture checks the same in a real process, where a rejection would crash it.
 */
export function recordUnhandledRejections(): { seen: unknown[]; stop: () => void } {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', listener);
  return { seen, stop: () => process.off('unhandledRejection', listener) };
}

/** True for a request id a response can carry (string or finite number). */
export function isUsableId(id: unknown): id is string | number {
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

/** True for a plain JSON object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Problems with `message` as a JSON-RPC 2.0 message a server may send: a
 * response (result xor error, with a usable or null id), a notification or a
 * request. Empty when it is well formed.
 */
export function jsonRpcProblems(message: unknown): string[] {
  if (!isObject(message)) return ['not an object'];
  const problems: string[] = [];
  if (message.jsonrpc !== '2.0') problems.push('jsonrpc is not "2.0"');
  if (typeof message.method === 'string') {
    if ('id' in message && !isUsableId(message.id)) problems.push('request with a bad id');
    return problems;
  }
  const hasResult = 'result' in message;
  const hasError = 'error' in message;
  if (hasResult === hasError) problems.push('a response needs exactly one of result and error');
  if (!(message.id === null || isUsableId(message.id))) problems.push('response id');
  if (hasResult && !isObject(message.result)) problems.push('result is not an object');
  if (hasError) {
    const error = message.error;
    if (!isObject(error)) problems.push('error is not an object');
    else {
      if (typeof error.code !== 'number' || !ALLOWED_ERROR_CODES.has(error.code)) {
        problems.push(`error code ${String(error.code)} is not an allowed one`);
      }
      if (typeof error.message !== 'string') problems.push('error message is not a string');
    }
  }
  return problems;
}

/** The result of a raw HTTP exchange. */
export interface RawHttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * One request through node:http with exactly these headers (no Host is added
 * when `headers.host` is given) and a byte body. A `text/event-stream` answer
 * is cut right after its head (its body would stay open): `body` is empty.
 */
export function rawHttp(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<RawHttpResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers, setHost: !('host' in headers) },
      (res) => {
        const type = String(res.headers['content-type'] ?? '');
        if (type.startsWith('text/event-stream')) {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.alloc(0) });
          res.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
        res.once('error', reject);
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

/**
 * Writes `head` (request line and headers, CRLF-separated, no final blank
 * line) and `body` on a bare socket and resolves with the whole answer once
 * the server closes the connection. For requests node:http will not send,
 * such as an HTTP/1.0 request with no Host header.
 */
export function rawSocketExchange(port: number, head: string, body = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.once('error', reject);
    socket.once('close', () => resolve(text));
    socket.once('connect', () => socket.end(`${head}\r\n\r\n${body}`));
  });
}

/** Splits a raw HTTP/1.x answer into its status and body (Content-Length or close framing). */
export function parseRawAnswer(text: string): { status: number; body: string } {
  const headEnd = text.indexOf('\r\n\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
  return { status, body: headEnd === -1 ? '' : text.slice(headEnd + 4) };
}

/**
 * Records the server-side sockets of `server` as clients connect, so a test
 * can watch the one that serves a given client socket (matched by port).
 */
export class ServerSockets {
  private readonly seen: Socket[] = [];
  private waiters: { port: number; resolve: (socket: Socket) => void }[] = [];
  private readonly onConnection = (socket: Socket) => {
    this.seen.push(socket);
    this.waiters = this.waiters.filter((w) =>
      w.port === socket.remotePort ? (w.resolve(socket), false) : true,
    );
  };

  constructor(private readonly server: Server) {
    server.on('connection', this.onConnection);
  }

  /** The server's socket for the client whose local port is `port`. */
  of(port: number): Promise<Socket> {
    const found = this.seen.find((socket) => socket.remotePort === port);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ port, resolve }));
  }

  stop(): void {
    this.server.off('connection', this.onConnection);
  }
}
