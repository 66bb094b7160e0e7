import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/* What is reached of the SDK's transport: its reconnection scheduler and its one timer field. */
interface Reconnecting {
  _scheduleReconnection: (...args: unknown[]) => void;
  _reconnectionTimeout?: ReturnType<typeof setTimeout>;
}

/**
 * The official SDK 1.x Streamable HTTP client transport, for suites that kill a server under a
 * live client. Its stream then breaks and it schedules reconnections, each a timer. Two ways one
 * outlives `close()` (closing-transport.e2e-spec.ts shows the first):
 * - a retry in flight when `close()` runs fails, and its failure schedules the next attempt: the
 *   SDK checks for a closed transport before reconnecting a broken stream, not after a failed
 *   retry;
 * - the transport keeps one timer, so a second stream's reconnection replaces the first's, which
 *   `close()` can no longer clear.
 * Such a timer keeps the suite's Jest worker alive past its last test, and Jest force-exits the
 * worker at the end of the run ("A worker process has failed to exit gracefully"). Here a closed
 * transport schedules nothing, and `close()` clears every timer it scheduled.
 */
export class ClosingStreamableTransport extends StreamableHTTPClientTransport {
  private closed = false;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(...args: ConstructorParameters<typeof StreamableHTTPClientTransport>) {
    super(...args);
    const self = this as unknown as Reconnecting;
    const schedule = self._scheduleReconnection.bind(this);
    self._scheduleReconnection = (...rest) => {
      if (this.closed) return;
      schedule(...rest);
      if (self._reconnectionTimeout) this.timers.add(self._reconnectionTimeout);
    };
  }

  override async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await super.close();
  }
}
