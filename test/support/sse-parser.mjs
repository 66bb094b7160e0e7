// @ts-check
/*
 * The one text/event-stream parser of the test suites, the soak script and the bench. Plain ES
 * module (with sse-parser.d.mts beside it) because scripts and bench run it without compiling.
 */

/**
 * Parses an event stream incrementally per the HTML rules: comments ignored, one leading space
 * of a value stripped, a blank line dispatches. Unlike EventSource it keeps events with empty
 * data, so priming events are visible.
 */
export class SseParser {
  /** @type {string} */
  #rest = '';

  /**
   * Feeds the next piece of decoded text; returns the events it completed, in order.
   * @param {string} text
   * @returns {import('./sse-parser.d.mts').SseEvent[]}
   */
  push(text) {
    const normalized = (this.#rest + text).replace(/\r\n?/g, '\n');
    /** @type {import('./sse-parser.d.mts').SseEvent[]} */
    const events = [];
    let start = 0;
    for (;;) {
      const blank = normalized.indexOf('\n\n', start);
      if (blank === -1) break;
      const event = parseBlock(normalized.slice(start, blank));
      if (event) events.push(event);
      start = blank + 2;
    }
    this.#rest = normalized.slice(start);
    return events;
  }
}

/**
 * One event block, or undefined for a comment-only block (a keep-alive).
 * @param {string} block
 * @returns {import('./sse-parser.d.mts').SseEvent | undefined}
 */
function parseBlock(block) {
  /** @type {import('./sse-parser.d.mts').SseEvent} */
  const event = { data: '' };
  /** @type {string[]} */
  const data = [];
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
  if (fields === 0) return undefined;
  event.data = data.join('\n');
  return event;
}

/**
 * A JSON-RPC message event: the default or `message` type, with data.
 * @param {import('./sse-parser.d.mts').SseEvent} event
 */
export function isMessage(event) {
  return (event.event === undefined || event.event === 'message') && event.data !== '';
}

/**
 * Reads a whole SSE body, calling `onMessage` with each JSON-RPC message as its event arrives;
 * resolves when the body ends.
 * @param {AsyncIterable<Uint8Array>} body
 * @param {(message: any) => void} onMessage
 * @returns {Promise<void>}
 */
export async function readSseMessages(body, onMessage) {
  const decoder = new TextDecoder();
  const parser = new SseParser();
  for await (const chunk of body) {
    for (const event of parser.push(decoder.decode(chunk, { stream: true }))) {
      if (isMessage(event)) onMessage(JSON.parse(event.data));
    }
  }
}
