import { Writable } from 'node:stream';

/** A stdio transport's output, decoded: one JSON message per line, awaitable by count. */
export class JsonLines extends Writable {
  readonly messages: Record<string, any>[] = [];
  private buffered = '';
  private waiter?: { count: number; resolve: () => void };

  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.buffered += chunk.toString('utf8');
    let newline: number;
    while ((newline = this.buffered.indexOf('\n')) !== -1) {
      this.messages.push(JSON.parse(this.buffered.slice(0, newline)));
      this.buffered = this.buffered.slice(newline + 1);
    }
    if (this.waiter && this.messages.length >= this.waiter.count) this.waiter.resolve();
    done();
  }

  /** Resolves once `count` messages have been written. */
  count(count: number): Promise<void> {
    if (this.messages.length >= count) return Promise.resolve();
    return new Promise((resolve) => (this.waiter = { count, resolve }));
  }
}
