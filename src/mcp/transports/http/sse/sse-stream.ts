import type { ServerResponse } from 'node:http';

/** Settings of one SSE stream. */
export interface SseStreamOptions {
  keepAliveMs: number;
  retryMs: number;
  /** Writes the client has not drained yet; past it the stream is dropped. */
  maxQueued: number;
}

/**
 * One Server-Sent Events response. It owns its keep-alive timer and bounds
 * what a slow reader can make the server buffer: once the socket is behind
 * (Node buffers what the kernel would not take), every write counts, and
 * past `maxQueued` of them without a drain the stream is closed (the session
 * and its other streams go on). Writes made in the same turn as the one that
 * fell behind do not count: a burst (a thousand progress notifications from
 * one loop) says nothing about the reader, which drains it as fast as any.
 */
export class SseStream {
  private keepAlive?: NodeJS.Timeout;
  /** Writes made while behind, after the turn it fell behind in. */
  private backlog = 0;
  private behind = false;
  /** Set one turn after falling behind: from then on writes count against the reader. */
  private stalled = false;
  private ended = false;
  private readonly closeHooks: (() => void)[] = [];

  constructor(
    private readonly res: ServerResponse,
    private readonly options: SseStreamOptions,
    headers: Record<string, string> = {},
  ) {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      ...headers,
    });
    res.flushHeaders();
    res.once('close', () => this.finish());
    res.on('drain', () => {
      this.behind = false;
      this.stalled = false;
      this.backlog = 0;
    });
    this.keepAlive = setInterval(() => this.write(': keep-alive\n\n'), options.keepAliveMs);
    this.keepAlive.unref();
  }

  get open(): boolean {
    return !this.ended;
  }

  /** Sends the priming event (an id, a retry hint and empty data) that makes the stream resumable. */
  prime(eventId: string): void {
    this.write(`id: ${eventId}\nretry: ${this.options.retryMs}\ndata: \n\n`);
  }

  /** Sends one message event; `eventId` makes it resumable. */
  send(data: string, eventId?: string, event = 'message'): void {
    const id = eventId === undefined ? '' : `id: ${eventId}\n`;
    this.write(`event: ${event}\n${id}data: ${data}\n\n`);
  }

  /** Ends the response (after what was written is flushed). */
  close(): void {
    if (this.ended) return;
    this.res.end();
    this.finish();
  }

  onClose(hook: () => void): void {
    if (this.ended) hook();
    else this.closeHooks.push(hook);
  }

  private write(chunk: string): void {
    if (this.ended) return;
    if (this.stalled && ++this.backlog > this.options.maxQueued) {
      // A reader this slow would make us buffer without bound: drop the stream.
      this.res.destroy();
      this.finish();
      return;
    }
    if (!this.res.write(chunk) && !this.behind) {
      this.behind = true;
      setImmediate(() => {
        if (this.behind) this.stalled = true;
      });
    }
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.keepAlive);
    for (const hook of this.closeHooks.splice(0)) hook();
  }
}
