import { SseParser, isMessage, type SseEvent } from './sse-parser.mjs';

export { isMessage, type SseEvent };

/** How a stream ended: normally (the server finished the response) or with a transport error. */
export interface SseEnd {
  error?: unknown;
}

type Waiter = {
  from: number;
  test: (event: SseEvent) => boolean;
  resolve: (event: SseEvent) => void;
  reject: (error: Error) => void;
};

/**
 * Reads an SSE response body (parsed by the shared SseParser, which keeps
 * empty-data priming events) and records its events. Waiters resolve as events arrive and reject if the stream ends
 * first: event-driven, no polling.
 */
export class SseReader {
  readonly events: SseEvent[] = [];
  /** Resolves when the body ends, normally or not; never rejects. */
  readonly ended: Promise<SseEnd>;
  private waiters: Waiter[] = [];
  private done?: SseEnd;

  constructor(readonly response: Response) {
    if (!response.body) throw new Error(`response ${response.status} has no body`);
    this.ended = this.pump(response.body);
  }

  /** The JSON-RPC messages carried so far (`message` events with data), parsed. */
  get messages(): Record<string, any>[] {
    return this.events.filter(isMessage).map((e) => JSON.parse(e.data));
  }

  /** The first event at index `from` or later that satisfies `test`. */
  waitFor(test: (event: SseEvent) => boolean = () => true, from = 0): Promise<SseEvent> {
    const found = this.events.slice(from).find(test);
    if (found) return Promise.resolve(found);
    if (this.done) return Promise.reject(this.endedEarly());
    return new Promise((resolve, reject) => this.waiters.push({ from, test, resolve, reject }));
  }

  /** The first event carrying a JSON-RPC message that satisfies `test`, parsed. */
  async waitForMessage(test: (message: Record<string, any>) => boolean): Promise<any> {
    const event = await this.waitFor((e) => isMessage(e) && test(JSON.parse(e.data)));
    return JSON.parse(event.data);
  }

  /** Resolves to the event at `index` once it has arrived. */
  at(index: number): Promise<SseEvent> {
    return this.waitFor(() => true, index);
  }

  private endedEarly(): Error {
    const seen = JSON.stringify(this.events);
    return new Error(`SSE stream ended before the awaited event; events: ${seen}`);
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<SseEnd> {
    const decoder = new TextDecoder();
    const parser = new SseParser();
    const reader = body.getReader();
    let end: SseEnd = {};
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const event of parser.push(decoder.decode(value, { stream: true }))) {
          this.dispatch(event);
        }
      }
    } catch (error) {
      end = { error };
    }
    this.done = end;
    for (const waiter of this.waiters.splice(0)) waiter.reject(this.endedEarly());
    return end;
  }

  private dispatch(event: SseEvent): void {
    const index = this.events.push(event) - 1;
    this.waiters = this.waiters.filter((waiter) => {
      if (index < waiter.from || !waiter.test(event)) return true;
      waiter.resolve(event);
      return false;
    });
  }
}
