import type { RequestId } from '../../../core/protocol/jsonrpc.js';

/**
 * Where a session's stream events are copied besides its own replay buffer.
 * None by default (one process); in cluster mode a log every instance can
 * replay from, and the relay to an instance that serves one of the streams.
 */
export interface McpEventMirror {
  /** One event, as recorded in the buffer. */
  append(streamId: string, eventId: string, data: string): void;
  /** A POST stream opened for the requests `ids`. */
  opened(streamId: string, ids: readonly RequestId[]): void;
  /** A stream ended (`'*'`: the whole session). */
  ended(streamId: string): void;
  /** Whether another instance serves `streamId` for its client (so its events must be sent there). */
  relays(streamId: string): boolean;
}
