/** One Server-Sent Event as it arrived: the fields the server wrote, `data` joined by newlines. */
export interface SseEvent {
  event?: string;
  id?: string;
  retry?: number;
  data: string;
}

/** An incremental text/event-stream parser (HTML rules; empty-data events kept). */
export declare class SseParser {
  /** Feeds the next piece of decoded text; returns the events it completed, in order. */
  push(text: string): SseEvent[];
}

/** A JSON-RPC message event: the default or `message` type, with data. */
export declare function isMessage(event: SseEvent): boolean;

/** Reads a whole SSE body, calling `onMessage` with each JSON-RPC message as it arrives. */
export declare function readSseMessages(
  body: AsyncIterable<Uint8Array>,
  onMessage: (message: any) => void,
): Promise<void>;
