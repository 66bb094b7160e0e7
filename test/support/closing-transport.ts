import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/* What is reached of the SDK's transport: its reconnection scheduler. */
interface Reconnecting {
  _scheduleReconnection: (...args: unknown[]) => void;
}

/**
 * The official SDK 1.x Streamable HTTP client transport, for suites that kill a server under a
 * live client. Its stream then breaks and it schedules reconnections, each a timer. A retry in
 * flight when `close()` runs fails, and its failure schedules the next attempt: the SDK checks
 * for a closed transport before reconnecting a broken stream, not after a failed retry
 * (closing-transport.e2e-spec.ts). That timer keeps the suite's Jest worker alive past its last
 * test. Here a closed transport schedules nothing.
 */
export class ClosingStreamableTransport extends StreamableHTTPClientTransport {
  private closed = false;

  constructor(...args: ConstructorParameters<typeof StreamableHTTPClientTransport>) {
    super(...args);
    const self = this as unknown as Reconnecting;
    const schedule = self._scheduleReconnection.bind(this);
    self._scheduleReconnection = (...rest) => {
      if (!this.closed) schedule(...rest);
    };
  }

  override async close(): Promise<void> {
    this.closed = true;
    await super.close();
  }
}
