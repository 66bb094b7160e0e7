import type { Redis } from 'ioredis';
import type { RequestId } from '../core/protocol/jsonrpc.js';
import type { ClusterKeys } from './cluster-keys.js';

/** How far past its cap an approximately trimmed stream may run (a node of the radix tree). */
const TRIM_SLACK = 128;

/** One entry of a session's log: an event, a stream opened for requests, or a stream's end. */
export type LogEntry =
  | { kind: 'event'; stream: string; id: string; seq: number; data: string }
  | { kind: 'opened'; stream: string; ids: RequestId[] }
  | { kind: 'ended'; stream: string };

/**
 * A session's events in a Redis Stream, so that any instance can replay a
 * stream after `Last-Event-ID` (the owner included, once it is gone). Only
 * the owner appends, in order, through one connection, each entry written to
 * Redis before the event is written to its client. The
 * log is capped (MAXLEN, about twice the replay buffer, for the markers) and
 * expires with the session's idle time after its last entry.
 */
export class RedisEventLog {
  /** When each session's log expiry was last pushed back (once per quarter TTL is enough). */
  private readonly extended = new Map<string, number>();

  constructor(
    private readonly redis: Redis,
    private readonly keys: ClusterKeys,
    private readonly maxEntries: number,
    private readonly ttlMs: number,
  ) {}

  append(session: string, stream: string, id: string, data: string): void {
    this.add(session, ['s', stream, 'i', id, 'd', data]);
  }

  opened(session: string, stream: string, ids: readonly RequestId[]): void {
    this.add(session, ['s', stream, 'o', JSON.stringify(ids)]);
  }

  ended(session: string, stream: string): void {
    this.add(session, ['s', stream, 'x', '1']);
  }

  /**
   * The newest entries still kept, oldest first. MAXLEN ~ trims whole nodes,
   * so the stream may hold a little more than the cap: the newest are read
   * (XREVRANGE), never the oldest cap's worth.
   */
  async read(session: string): Promise<LogEntry[]> {
    const raw = await this.redis.xrevrange(
      this.keys.log(session),
      '+',
      '-',
      'COUNT',
      this.maxEntries + TRIM_SLACK,
    );
    return raw.reverse().flatMap(([, fields]) => {
      const entry = parse(fields);
      return entry ? [entry] : [];
    });
  }

  remove(session: string): void {
    this.extended.delete(session);
    void this.redis.del(this.keys.log(session)).catch(() => undefined);
  }

  private add(session: string, fields: string[]): void {
    const key = this.keys.log(session);
    void this.redis
      .xadd(key, 'MAXLEN', '~', this.maxEntries, '*', ...fields)
      .catch(() => undefined);
    const now = Date.now();
    if (now - (this.extended.get(session) ?? 0) < this.ttlMs / 4) return;
    this.extended.set(session, now);
    void this.redis.pexpire(key, this.ttlMs).catch(() => undefined);
  }
}

function parse(fields: string[]): LogEntry | undefined {
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) map.set(fields[i], fields[i + 1]);
  const stream = map.get('s');
  if (stream === undefined) return undefined;
  if (map.has('x')) return { kind: 'ended', stream };
  const opened = map.get('o');
  if (opened !== undefined) {
    try {
      const ids = JSON.parse(opened) as unknown;
      return Array.isArray(ids) ? { kind: 'opened', stream, ids: ids as RequestId[] } : undefined;
    } catch {
      return undefined;
    }
  }
  const id = map.get('i');
  const data = map.get('d');
  if (id === undefined || data === undefined) return undefined;
  return { kind: 'event', stream, id, seq: seqOf(id), data };
}

/** The session-wide sequence number of an event id (`<stream>.<seq>`); NaN if it is none. */
export function seqOf(eventId: string): number {
  const dot = eventId.lastIndexOf('.');
  return dot <= 0 ? NaN : Number(eventId.slice(dot + 1));
}

/** The stream an event id names; undefined if it names none. */
export function streamOf(eventId: string): string | undefined {
  const dot = eventId.lastIndexOf('.');
  const seq = Number(eventId.slice(dot + 1));
  return dot <= 0 || !Number.isInteger(seq) || seq < 0 ? undefined : eventId.slice(0, dot);
}
