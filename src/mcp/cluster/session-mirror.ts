import type { RequestId } from '../core/protocol/jsonrpc.js';
import type { McpEventMirror } from '../transports/http/sse/event-mirror.interface.js';
import type { McpClusterBus } from './cluster-bus.js';
import type { RedisEventLog } from './redis-event.log.js';

/** An instance relaying one of the session's streams to its client. */
interface RemoteReader {
  instance: string;
  corr: string;
}

/**
 * The owner's side of a session in cluster mode: every event goes to the
 * session's log, and the events of a stream another instance serves (a POST
 * it received, a GET or a resumption) are pushed to that instance as well.
 */
export class ClusterSessionMirror implements McpEventMirror {
  private readonly readers = new Map<string, RemoteReader>();
  /**
   * POST streams opened but not logged yet. A POST answered with plain JSON
   * gives its client no event id to resume from, so it costs the log
   * nothing: a stream is logged from its first event, or from when another
   * instance relays it.
   */
  private readonly unlogged = new Map<string, readonly RequestId[]>();
  private readonly logged = new Set<string>();

  constructor(
    private readonly session: string,
    private readonly bus: McpClusterBus,
    private readonly log: RedisEventLog,
  ) {}

  append(stream: string, eventId: string, data: string): void {
    this.logOpened(stream);
    this.log.append(this.session, stream, eventId, data);
    const reader = this.readers.get(stream);
    if (reader) this.bus.push(reader.instance, { t: 'e', c: reader.corr, id: eventId, d: data });
  }

  opened(stream: string, ids: readonly RequestId[]): void {
    this.unlogged.set(stream, ids);
  }

  ended(stream: string): void {
    this.unlogged.delete(stream);
    if (stream === '*' || this.logged.delete(stream)) this.log.ended(this.session, stream);
    if (stream === '*') {
      for (const reader of this.readers.values()) this.end(reader);
      this.readers.clear();
      return;
    }
    const reader = this.readers.get(stream);
    if (!reader) return;
    this.readers.delete(stream);
    this.end(reader);
  }

  relays(stream: string): boolean {
    return this.readers.has(stream);
  }

  /** `instance` now serves `stream` (a reader it replaces is told its stream ended). */
  attach(stream: string, instance: string, corr: string): void {
    const previous = this.readers.get(stream);
    if (previous && previous.corr !== corr) this.end(previous);
    this.readers.set(stream, { instance, corr });
    this.logOpened(stream);
  }

  /** The client of `stream` on another instance went away. */
  detach(stream: string, corr: string): void {
    if (this.readers.get(stream)?.corr === corr) this.readers.delete(stream);
  }

  /** Forgets the readers on an instance that died. */
  forget(instance: string): void {
    for (const [stream, reader] of this.readers) {
      if (reader.instance === instance) this.readers.delete(stream);
    }
  }

  /** The instances reading one of the streams. */
  readerInstances(): string[] {
    return [...new Set([...this.readers.values()].map((reader) => reader.instance))];
  }

  /** Logs the requests a stream answers, once, before anything else of it. */
  private logOpened(stream: string): void {
    const ids = this.unlogged.get(stream);
    if (ids === undefined) return;
    this.unlogged.delete(stream);
    this.logged.add(stream);
    this.log.opened(this.session, stream, ids);
  }

  private end(reader: RemoteReader): void {
    this.bus.push(reader.instance, { t: 'x', c: reader.corr });
  }
}
