// @ts-check
import { readSseMessages } from '../../test/support/sse-parser.mjs';
import { Client } from './client.mjs';
import { figures, problem } from './figures.mjs';

/** @typedef {import('./client.mjs').Msg} Msg */

const ACCEPT_BOTH = 'application/json, text/event-stream';

/**
 * A fetch response's body as the async iterable it is in Node (the DOM typing lacks it).
 * @param {Response} response
 * @returns {AsyncIterable<Uint8Array>}
 */
function bodyOf(response) {
  if (!response.body) throw new Error(`HTTP ${response.status} without a body`);
  return /** @type {AsyncIterable<Uint8Array>} */ (/** @type {unknown} */ (response.body));
}

/** A Streamable HTTP session driven with fetch. */
export class HttpClient extends Client {
  /**
   * @param {string} url the MCP endpoint
   * @param {string} token
   * @param {number} maxCalls
   */
  constructor(url, token, maxCalls) {
    super('http', token, maxCalls);
    this.url = url;
    /** @type {string | null} */
    this.sessionId = null;
    /** @type {Promise<void> | undefined} */
    this.streamDone = undefined;
    this.streamAbort = new AbortController();
  }

  /** @returns {Record<string, string>} */
  headers() {
    /** @type {Record<string, string>} */
    const headers = { accept: ACCEPT_BOTH, 'content-type': 'application/json' };
    if (this.sessionId) headers['mcp-session-id'] = this.sessionId;
    return headers;
  }

  async open() {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: this.headers(),
      body: JSON.stringify(
        this.call('initialize', {
          protocolVersion: '2025-11-25',
          capabilities: { elicitation: {} },
          clientInfo: { name: 'soak', version: '1.0.0' },
        }),
      ),
    });
    if (response.status !== 200)
      throw new Error(`initialize: HTTP ${response.status} ${await response.text()}`);
    this.sessionId = response.headers.get('mcp-session-id');
    await response.json();
    await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const stream = await fetch(this.url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': String(this.sessionId) },
      signal: this.streamAbort.signal,
    });
    if (stream.status !== 200) throw new Error(`GET stream: HTTP ${stream.status}`);
    this.streamDone = readSseMessages(bodyOf(stream), (m) => this.onNotification(m)).catch(
      () => undefined,
    );
    const [subscribed] = await this.send(this.call('resources/subscribe', { uri: this.uri }));
    if (!subscribed?.result) throw new Error(`subscribe: ${JSON.stringify(subscribed)}`);
    figures.httpSessions++;
  }

  /**
   * POSTs a message that expects no answer (202).
   * @param {Msg} message
   */
  async post(message) {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: this.headers(),
      body: JSON.stringify(message),
    });
    await response.arrayBuffer();
    if (response.status !== 202)
      throw new Error(`POST ${message.method ?? 'answer'}: HTTP ${response.status}`);
  }

  /**
   * POSTs a request; its answer is JSON or an SSE stream that may carry server requests first.
   * @override
   * @param {Msg} message
   * @returns {Promise<Msg[]>}
   */
  async send(message) {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: this.headers(),
      body: JSON.stringify(message),
    });
    const type = response.headers.get('content-type') ?? '';
    // An honest call is never refused: a 4xx or 5xx is a lost call (503 and 429 included).
    if (response.status >= 400) throw new Error(`HTTP ${response.status} ${await response.text()}`);
    if (type.startsWith('application/json')) {
      const body = /** @type {Msg | Msg[]} */ (await response.json());
      return Array.isArray(body) ? body : [body];
    }
    if (!type.startsWith('text/event-stream')) {
      throw new Error(`HTTP ${response.status} ${type} ${await response.text()}`);
    }
    /** @type {Msg[]} */
    const responses = [];
    /** @type {Promise<void>[]} */
    const answers = [];
    await readSseMessages(bodyOf(response), (m) => {
      if (m.method !== undefined && m.id !== undefined) {
        const answer = this.answerTo(m);
        // An answer the server refused is a lost message (the run goes on to count the rest).
        if (answer)
          answers.push(
            this.post(answer).then(
              () => this.acknowledge(answer),
              (error) => problem('lost', `${this.token} answer to ${m.id}: ${error.message}`),
            ),
          );
      } else if (m.method === undefined) {
        if (m.id === message.id) responses.push(m);
        else problem('crossed', `${this.token}: response ${m.id} on the stream of ${message.id}`);
      } else if (m.method !== 'notifications/cancelled') {
        this.onNotification(m);
      }
    });
    await Promise.all(answers);
    return responses;
  }

  async close() {
    const response = await fetch(this.url, {
      method: 'DELETE',
      headers: { 'mcp-session-id': String(this.sessionId) },
    });
    await response.arrayBuffer();
    if (response.status !== 200) problem('wrong', `DELETE: HTTP ${response.status}`);
    this.streamAbort.abort();
    await this.streamDone;
  }
}
