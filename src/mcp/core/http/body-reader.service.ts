import { Inject, Injectable, Logger } from '@nestjs/common';
import contentType from 'content-type';
import type { IncomingMessage } from 'node:http';
import { decodeJsonMessage } from '../decoding/json-message.decoder.js';
import { JsonRpcErrorCode } from '../protocol/error-codes.constants.js';
import { McpClientGoneError } from './client-gone.error.js';
import { McpHttpError } from './mcp-http.error.js';
import type { MessageShapeBounds } from '../decoding/message-shape.scanner.js';
import type { ResolvedMcpLimits } from '../limits/mcp-limits.interface.js';
import { MCP_HTTP_SETTINGS } from './http-settings.token.js';

/** What the body reader reads of the HTTP settings (`McpHttpSettings` is wider). */
export interface McpBodyReaderSettings extends Pick<
  ResolvedMcpLimits,
  'maxBodyBytes' | 'maxBufferedBodyBytes' | 'bodyTimeoutMs'
> {
  readonly shapeBounds: MessageShapeBounds;
}

/**
 * Reads and parses the JSON body of an MCP request, with bounds that a slow
 * or hostile uploader cannot dodge: the body's own size (413), a deadline for
 * the whole body (408), and one budget of bytes buffered across every request
 * in flight (503 past it), so many slow uploads cannot hold the memory that
 * one cannot. One caller may hold at most a quarter of that budget (429 past
 * it), so one caller's slow uploads never refuse another's requests. The
 * body's shape is measured before it is parsed (`decodeJsonMessage`), so no
 * body costs the event loop more than a bounded parse. A body an upstream
 * parser already decoded is taken as is.
 */
@Injectable()
export class McpBodyReader {
  private readonly logger = new Logger('McpHttp');
  /** Bytes held by bodies still arriving, over all requests. */
  private buffered = 0;
  /** The same, per caller (quota key). */
  private readonly byCaller = new Map<string, number>();

  constructor(@Inject(MCP_HTTP_SETTINGS) private readonly settings: McpBodyReaderSettings) {}

  /** Bytes currently buffered by bodies still arriving (for tests and health checks). */
  get bufferedBytes(): number {
    return this.buffered;
  }

  /** The parsed body of `caller`'s request (its quota key), at most `maxBytes` (default `limits.maxBodyBytes`). */
  async read(
    req: IncomingMessage,
    caller: string,
    maxBytes = this.settings.maxBodyBytes,
  ): Promise<unknown> {
    const parsed = (req as { body?: unknown }).body;
    if (parsed !== undefined && typeof parsed === 'object' && !Buffer.isBuffer(parsed)) {
      return parsed;
    }
    if (!isJson(req.headers['content-type'])) {
      throw new McpHttpError(415, 'Unsupported Media Type: Content-Type must be application/json');
    }
    const body = await this.readBytes(req, caller, maxBytes);
    const decoded = decodeJsonMessage(body.toString('utf8'), this.settings.shapeBounds);
    if (decoded.kind === 'message') return decoded.message;
    if (decoded.kind === 'parse-error') {
      throw new McpHttpError(400, 'Parse error', JsonRpcErrorCode.ParseError);
    }
    throw new McpHttpError(
      400,
      `Invalid Request: ${decoded.reason}`,
      JsonRpcErrorCode.InvalidRequest,
    );
  }

  /**
   * The raw bytes of `caller`'s request body, under the same bounds as `read`
   * (413 past `maxBytes`, 408 past `limits.bodyTimeoutMs`, 429/503 past the
   * shared budget): for the routes beside the MCP endpoint that take a small
   * form (the console, the webhook links). A refusal is an `McpHttpError`; a
   * client gone mid-upload an `McpClientGoneError`.
   */
  async readBytes(req: IncomingMessage, caller: string, maxBytes: number): Promise<Buffer> {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
    // Already read to its end (nothing else reads these routes' bodies): there is nothing to wait for.
    if (req.readableEnded) return Buffer.alloc(0);
    if (arrived(req, declared)) return takeArrived(req, maxBytes);
    // A POST read as its headers arrive: Node parses the body that came in the same packet once
    // this turn's synchronous work is done, before the next microtask.
    await null;
    if (arrived(req, declared)) return takeArrived(req, maxBytes);
    return this.collect(req, caller, maxBytes);
  }

  /* Collects at most maxBodyBytes within bodyTimeoutMs, inside the shared budget; the rest is never buffered. */
  private collect(req: IncomingMessage, caller: string, maxBodyBytes: number): Promise<Buffer> {
    const { maxBufferedBodyBytes, bodyTimeoutMs } = this.settings;
    const callerShare = Math.floor(maxBufferedBodyBytes / 4);
    return new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      const finish = (error?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        this.buffered -= size;
        const held = (this.byCaller.get(caller) ?? 0) - size;
        if (held > 0) this.byCaller.set(caller, held);
        else this.byCaller.delete(caller);
        req.off('data', onData);
        if (error) {
          chunks.length = 0;
          // Nothing more is read: the client is told, and the socket does not linger.
          req.resume();
          reject(error);
        } else resolve(Buffer.concat(chunks, size));
      };
      const onData = (chunk: Buffer) => {
        if (settled) return;
        if (size + chunk.length > maxBodyBytes) return finish(tooLarge(maxBodyBytes));
        const held = this.byCaller.get(caller) ?? 0;
        if (held + chunk.length > callerShare) {
          return finish(
            new McpHttpError(429, 'Too Many Requests: too many request bodies in flight'),
          );
        }
        if (this.buffered + chunk.length > maxBufferedBodyBytes) {
          return finish(
            new McpHttpError(503, 'Service Unavailable: too many request bodies in flight'),
          );
        }
        size += chunk.length;
        this.buffered += chunk.length;
        this.byCaller.set(caller, held + chunk.length);
        chunks.push(chunk);
      };
      const deadline = setTimeout(() => {
        finish(
          new McpHttpError(408, `Request Timeout: the body took longer than ${bodyTimeoutMs} ms`),
        );
      }, bodyTimeoutMs);
      deadline.unref();
      req.on('data', onData);
      req.once('end', () => finish());
      req.once('aborted', () => finish(new McpClientGoneError()));
      req.once('error', () => finish(new McpClientGoneError()));
      req.once('close', () => {
        if (!req.complete) finish(new McpClientGoneError());
      });
    }).catch((error: unknown) => {
      if (error instanceof McpClientGoneError) this.logger.debug('client went away mid-upload');
      throw error;
    });
  }
}

/*
 * Whether the whole body is in the request's buffer: the message is complete, or every byte its
 * Content-Length declares is there (Node marks the message complete a little later). Nothing
 * else may be reading it.
 */
function arrived(req: IncomingMessage, declared: number): boolean {
  if (req.readableFlowing) return false;
  if (req.complete) return true;
  return (
    req.headers['transfer-encoding'] === undefined &&
    Number.isSafeInteger(declared) &&
    declared >= 0 &&
    req.readableLength >= declared
  );
}

/*
 * A body that arrived whole before it was asked for (a small POST, usually in the packet of its
 * headers) sits in the request's buffer: taken at once, with no listener, promise or deadline
 * (five listeners and a timer per POST were a tenth of a call's CPU, bench: throughput-http).
 * That buffer is bounded already: Node stops reading a socket once its request holds more than
 * its high-water mark unread, so only a small body is ever complete here; the rest are collected
 * under the shared budget. maxBytes holds as it does there.
 */
function takeArrived(req: IncomingMessage, maxBytes: number): Buffer {
  const chunks: Buffer[] = [];
  let size = 0;
  for (let chunk: unknown; (chunk = req.read()) !== null;) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += bytes.length;
    if (size > maxBytes) {
      // The rest is drained, not left to hold a socket Node paused for it.
      req.resume();
      throw tooLarge(maxBytes);
    }
    chunks.push(bytes);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

/* The last Content-Type seen, and whether it was JSON: a client sends the same one every time. */
let lastContentType: string | undefined;
let lastIsJson = false;

/* `application/json`, with any parameters; not `application/json-patch` and the like. */
function isJson(header: string | undefined): boolean {
  if (!header) return false;
  if (header === lastContentType) return lastIsJson;
  let json: boolean;
  try {
    json = contentType.parse(header).type === 'application/json';
  } catch {
    json = false;
  }
  lastContentType = header;
  lastIsJson = json;
  return json;
}

function tooLarge(maxBytes: number): McpHttpError {
  return new McpHttpError(413, `Payload Too Large: the limit is ${maxBytes} bytes`);
}
