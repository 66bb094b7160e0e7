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
 * what a slow reader can make the server buffer: past `maxQueued` unflushed
 * writes the stream is closed (the session and its other streams go on).
 */
export class SseStream {
  private keepAlive?: NodeJS.Timeout;
  private queued = 0;
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
    if (this.queued >= this.options.maxQueued) {
      // A reader this slow would make us buffer without bound: drop the stream.
      this.res.destroy();
      this.finish();
      return;
    }
    this.queued++;
    this.res.write(chunk, () => this.queued--);
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.keepAlive);
    for (const hook of this.closeHooks.splice(0)) hook();
  }
}
