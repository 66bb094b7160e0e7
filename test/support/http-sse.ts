/** One Server-Sent Event as it arrived: the fields the server wrote, `data` joined by newlines. */
export interface SseEvent {
  event?: string;
  id?: string;
  retry?: number;
  data: string;
}

/** How a stream ended: normally (the server finished the response) or with a transport error. */
export interface SseEnd {
  error?: unknown;
}

/** A JSON-RPC message event: the default or `message` type, with data. */
export function isMessage(event: SseEvent): boolean {
  return (event.event === undefined || event.event === 'message') && event.data !== '';
}

type Waiter = {
  from: number;
  test: (event: SseEvent) => boolean;
  resolve: (event: SseEvent) => void;
  reject: (error: Error) => void;
};

/**
 * Reads an SSE response body and parses it per the HTML event-stream rules
 * (comments ignored, one leading space stripped, blank line dispatches).
 * Unlike EventSource it keeps events with empty data, so priming events are
 * visible. Waiters resolve as events arrive and reject if the stream ends
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
    const reader = body.getReader();
    let buffer = '';
    let end: SseEnd = {};
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        buffer = this.parse(buffer);
      }
    } catch (error) {
      end = { error };
    }
    this.done = end;
    for (const waiter of this.waiters.splice(0)) waiter.reject(this.endedEarly());
    return end;
  }

  /** Dispatches every complete event in `buffer`; returns the incomplete rest. */
  private parse(buffer: string): string {
    const normalized = buffer.replace(/\r\n?/g, '\n');
    let start = 0;
    for (;;) {
      const blank = normalized.indexOf('\n\n', start);
      if (blank === -1) break;
      this.dispatch(normalized.slice(start, blank));
      start = blank + 2;
    }
    return normalized.slice(start);
  }

  private dispatch(block: string): void {
    const event: SseEvent = { data: '' };
    const data: string[] = [];
    let fields = 0;
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const name = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      fields++;
      if (name === 'data') data.push(value);
      else if (name === 'event') event.event = value;
      else if (name === 'id') event.id = value;
      else if (name === 'retry') event.retry = Number(value);
    }
    if (fields === 0) return; // a comment-only block (keep-alive)
    event.data = data.join('\n');
    const index = this.events.push(event) - 1;
    this.waiters = this.waiters.filter((waiter) => {
      if (index < waiter.from || !waiter.test(event)) return true;
      waiter.resolve(event);
      return false;
    });
  }
}
