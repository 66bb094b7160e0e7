import type { McpEventMirror } from './event-mirror.interface.js';

/** One message sent on an SSE stream, kept for `Last-Event-ID` replay. */
export interface BufferedEvent {
  streamId: string;
  seq: number;
  data: string;
}

/**
 * The last `capacity` events of a session. Event ids are `<stream>.<seq>`,
 * with `seq` increasing across the whole session, so ids are unique per
 * session and name the stream they belong to.
 */
export class EventBuffer {
  private readonly events: BufferedEvent[] = [];
  private seq = 0;

  constructor(
    private readonly capacity: number,
    /** Also records every event elsewhere (cluster mode: a log every instance replays from). */
    private readonly mirror?: McpEventMirror,
  ) {}

  get size(): number {
    return this.events.length;
  }

  /** Records `data` on `streamId` and returns its event id. */
  add(streamId: string, data: string): string {
    const event = { streamId, seq: ++this.seq, data };
    this.events.push(event);
    if (this.events.length > this.capacity) this.events.shift();
    const id = eventId(event);
    this.mirror?.append(streamId, id, data);
    return id;
  }

  /** A fresh id on `streamId` that carries no data (for priming events). */
  mark(streamId: string): string {
    return `${streamId}.${++this.seq}`;
  }

  /** Events of the stream `lastEventId` names that came after it (never another stream's). */
  after(
    lastEventId: string,
  ): { streamId: string; events: { id: string; data: string }[] } | undefined {
    const dot = lastEventId.lastIndexOf('.');
    const seq = Number(lastEventId.slice(dot + 1));
    if (dot <= 0 || !Number.isInteger(seq)) return undefined;
    const streamId = lastEventId.slice(0, dot);
    const events = this.events
      .filter((event) => event.streamId === streamId && event.seq > seq)
      .map((event) => ({ id: eventId(event), data: event.data }));
    return { streamId, events };
  }
}

function eventId(event: BufferedEvent): string {
  return `${event.streamId}.${event.seq}`;
}
