import type { Readable, Writable } from 'node:stream';
import type { Subscription } from 'rxjs';
import { DEFAULT_LIMITS } from '../../core/limits/default-limits.js';
import { DEFAULT_CONN_ID } from '../../core/mcp.constants.js';
import { JsonRpcErrorCode } from '../../core/protocol/error-codes.constants.js';
import { jsonRpcError, parseErrorResponse } from '../../core/protocol/jsonrpc.js';
import type { McpPrincipal } from '../../authentication/principal.interface.js';
import type { McpMessageOrigin } from '../../engine/dispatch/message-origin.interface.js';
import type { McpWarden } from '../../engine/mcp-warden.service.js';
import { decodeJsonMessage, messageShapeBounds } from '../../core/decoding/json-message.decoder.js';
import type { MessageShapeBounds } from '../../core/decoding/message-shape.scanner.js';
import { LineDecoder, type LineEvent } from './line.decoder.js';
import { UNWRITABLE_MESSAGE } from '../../core/http/send-json.js';

/**
 * Options of the stdio transport.
 * @publicApi
 */
export interface McpStdioTransportOptions {
  input?: Readable;
  output?: Writable;
  /** Longest accepted line, in bytes. Default 4 MiB. */
  maxLineBytes?: number;
  /**
   * Requests served at once (default `limits.maxInFlightPerConnection`).
   * Past it, further requests wait, in order, and reading pauses once enough
   * wait: a pipelining client is slowed down, never refused.
   */
  maxInFlight?: number;
  /**
   * The shape a line must keep to be parsed (default: from the default
   * limits; `serveStdio` passes the app's).
   */
  shapeBounds?: MessageShapeBounds;
  /** The connection id the single stdio client gets. Default `'default'`. */
  connId?: string;
  /**
   * Who the local client is, as the operator who started the process says
   * (stdio carries no credentials; see `principalFromEnv`). Default: anonymous.
   */
  principal?: McpPrincipal;
}

/**
 * Lines served per turn of the event loop, at most… Each turn's replies leave in one write at its
 * end, so a client with 32 calls pipelined reads the first half of its answers, and sends the
 * next calls, while the second half is served: the two processes overlap. A turn of 64 lines
 * answered such a window in one write, and the two then took turns (docs/performance.md,
 * "stdio").
 */
const LINES_PER_TURN = 16;
/** …and characters: a turn that decoded this much yields, so long lines cannot add up to a stall. */
const CHARS_PER_TURN = 1024 * 1024;
/** Lines waiting to be served past which stdin is paused. */
const MAX_BACKLOG = 1024;

/**
 * Newline-delimited JSON-RPC over a pair of streams (stdin/stdout by default).
 * It frames bytes and nothing more: every line goes to `McpWarden` as is, and
 * every reply or outbound message is written as one line. Requests are served
 * concurrently, so a cancellation can overtake the call it cancels.
 * @publicApi
 */
export class McpStdioTransport {
  private readonly input: Readable;
  private readonly output: Writable;
  private readonly decoder: LineDecoder;
  private readonly connId: string;
  /** Every message comes from the one local client over stdio. */
  private readonly origin: McpMessageOrigin;
  private readonly inflight = new Set<Promise<void>>();
  private readonly maxInFlight: number;
  private readonly shapeBounds: MessageShapeBounds;
  /** Requests being served (parked ones included). */
  private requests = 0;
  /** Requests read while `maxInFlight` were being served: served, in order, as slots free. */
  private held: unknown[] = [];
  private outbound?: Subscription;
  private finish?: () => void;
  private stopped = false;
  private draining = false;
  /** Replies since the last write, sent together at the end of the tick. */
  private pending = '';
  private backlog: LineEvent[] = [];
  private head = 0;
  private pumping = false;
  private idle?: () => void;

  constructor(
    private readonly server: McpWarden,
    options: McpStdioTransportOptions = {},
  ) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    this.decoder = new LineDecoder(options.maxLineBytes ?? DEFAULT_LIMITS.maxLineBytes);
    this.maxInFlight = options.maxInFlight ?? DEFAULT_LIMITS.maxInFlightPerConnection;
    this.shapeBounds = options.shapeBounds ?? messageShapeBounds(DEFAULT_LIMITS);
    this.connId = options.connId ?? DEFAULT_CONN_ID;
    this.origin = Object.freeze({ transport: 'stdio', principal: options.principal });
  }

  /** Serves until the input ends (or `stop()`), then waits for in-flight requests. */
  run(): Promise<void> {
    this.outbound = this.server.subscribe(this.connId).subscribe((message) => this.write(message));
    const ended = new Promise<void>((resolve) => {
      this.finish = resolve;
      this.input.once('end', resolve);
      this.input.once('close', resolve);
    });
    this.input.on('data', (chunk: Buffer | string) =>
      this.receive(this.decoder.push(toBuffer(chunk))),
    );
    return ended.then(async () => {
      this.receive(this.decoder.end());
      await this.drain();
      this.outbound?.unsubscribe();
      // Nothing may stay unwritten once run() resolves (the caller may exit right after).
      this.flush();
    });
  }

  /** Stops reading (SIGTERM): `run()` resolves once in-flight requests finish. */
  stop(): void {
    this.stopped = true;
    this.input.pause();
    this.input.removeAllListeners('data');
    this.finish?.();
  }

  /*
   * Lines are served a few at a time, one turn of the event loop each: the
   * replies of the first ones leave (and the client can answer them) while
   * the rest are still being served, instead of the whole chunk at once.
   * A large backlog pauses stdin, so a flood is bounded by what was read.
   */
  private receive(events: LineEvent[]): void {
    if (events.length === 0) return;
    for (const event of events) this.backlog.push(event);
    if (this.backlog.length - this.head > MAX_BACKLOG && !this.stopped) this.input.pause();
    if (!this.pumping) this.pump();
  }

  private readonly pump = (): void => {
    this.pumping = true;
    const end = Math.min(this.head + LINES_PER_TURN, this.backlog.length);
    let chars = 0;
    while (this.head < end && chars < CHARS_PER_TURN) {
      const event = this.backlog[this.head++];
      if (event.kind === 'line') chars += event.text.length;
      this.serve(event);
    }
    if (this.head < this.backlog.length) {
      setImmediate(this.pump);
      return;
    }
    this.backlog = [];
    this.head = 0;
    this.pumping = false;
    if (!this.stopped && !this.draining) this.input.resume();
    this.idle?.();
  };

  private serve(event: LineEvent): void {
    if (event.kind === 'oversized') {
      this.write(
        jsonRpcError(null, JsonRpcErrorCode.InvalidRequest, 'Invalid Request: message too large'),
      );
      return;
    }
    const decoded = decodeJsonMessage(event.text, this.shapeBounds);
    if (decoded.kind !== 'message') {
      this.write(
        decoded.kind === 'parse-error'
          ? parseErrorResponse()
          : jsonRpcError(
              null,
              JsonRpcErrorCode.InvalidRequest,
              `Invalid Request: ${decoded.reason}`,
            ),
      );
      return;
    }
    const { message } = decoded;
    // Responses and notifications always go through: an answer the server awaits may be among them.
    if (isRequest(message) && (this.requests >= this.maxInFlight || this.held.length > 0)) {
      this.held.push(message);
      if (this.held.length >= MAX_BACKLOG && !this.stopped) this.input.pause();
      return;
    }
    this.dispatch(message);
  }

  private dispatch(message: unknown): void {
    const request = isRequest(message);
    if (request) this.requests++;
    this.track(
      this.server.dispatch(message, this.connId, this.origin).then((outcome) => {
        if (outcome.kind === 'reply') this.write(outcome.message);
        if (!request) return;
        // A parked call holds its slot until it ends (the server counts it in flight too), and
        // is waited for at the end like any request: its answer leaves before run() resolves.
        if (outcome.kind === 'parked' && outcome.answered) {
          this.track(outcome.answered.then(() => this.release()));
        } else this.release();
      }),
    );
  }

  /* A slot freed: the held requests go next, in the order they were read. */
  private release(): void {
    this.requests--;
    while (this.held.length > 0 && this.requests < this.maxInFlight) {
      this.dispatch(this.held.shift());
    }
    if (this.held.length < MAX_BACKLOG && !this.stopped && !this.draining && !this.pumping) {
      this.input.resume();
    }
  }

  private track(work: Promise<void>): void {
    this.inflight.add(work);
    void work.finally(() => this.inflight.delete(work));
  }

  private async drain(): Promise<void> {
    while (this.pumping || this.inflight.size > 0 || this.held.length > 0) {
      // The input ended: held requests are served now, past the cap (the server bounds them).
      while (!this.pumping && this.held.length > 0) this.dispatch(this.held.shift());
      if (this.pumping) await new Promise<void>((resolve) => (this.idle = resolve));
      else {
        // Every line is served: long-lived requests (listen streams) end, so nothing waits forever.
        this.server.endStreams(this.connId);
        await Promise.allSettled([...this.inflight]);
      }
    }
  }

  private write(message: object): void {
    if (!this.output.writable) return;
    // Replies finishing in the same tick leave in one write of one string: one syscall, and no
    // per-reply chunk for the stream to gather (docs/performance.md, "stdio").
    let line: string;
    try {
      line = JSON.stringify(message);
    } catch {
      // A value JSON cannot carry (a getter or toJSON that throws): an answer still leaves, as
      // over HTTP (send-json.ts), never an unhandled rejection that ends the process.
      const id = (message as { id?: unknown }).id;
      if (typeof id !== 'string' && typeof id !== 'number') return;
      line = JSON.stringify(jsonRpcError(id, JsonRpcErrorCode.InternalError, UNWRITABLE_MESSAGE));
    }
    if (this.pending === '') process.nextTick(this.flush);
    this.pending += line + '\n';
  }

  /*
   * When the client stops reading stdout, stop reading its stdin: memory
   * stays bounded by what is already in flight instead of growing with it.
   */
  private readonly flush = (): void => {
    const text = this.pending;
    if (text === '') return;
    this.pending = '';
    if (!this.output.writable || this.output.write(text) || this.draining) return;
    this.draining = true;
    this.input.pause();
    this.output.once('drain', () => {
      this.draining = false;
      if (!this.stopped) this.input.resume();
    });
  };
}

function isRequest(message: unknown): boolean {
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof (message as { method?: unknown }).method === 'string' &&
    'id' in message
  );
}

function toBuffer(chunk: Buffer | string): Buffer {
  return typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
}
