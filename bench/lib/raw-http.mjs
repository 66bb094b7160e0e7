// A lean HTTP/1.1 keep-alive client on raw sockets, so the load driver is never the bottleneck:
// one request in flight per connection, minimal incremental parsing (Content-Length or chunked).
// SSE bodies can be streamed: `onMessage` sees each JSON-RPC message as its event arrives, which
// the elicitation round trip needs (the answer must be sent while the call's stream is open).
import net from 'node:net';
import { SseParser, isMessage } from '../../test/support/sse-parser.mjs';

export class RawHttpConnection {
  /** `headers`: sent on every request of this connection (an `Authorization`, say). */
  constructor(url, { headers = {} } = {}) {
    const { hostname, port, pathname } = new URL(url);
    this.host = `${hostname}:${port}`;
    this.path = pathname;
    // Built once: the per-request head stays one concatenation.
    this.fixedHeaders = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    this.buffer = Buffer.alloc(0);
    this.current = null;
    this.closed = false;
    this.socket = net.connect(Number(port), hostname);
    this.socket.setNoDelay(true);
    this.ready = new Promise((resolve, reject) => {
      this.socket.once('connect', resolve);
      this.socket.once('error', reject);
    });
    this.ready.catch(() => {}); // surfaced by whoever awaits `ready` or a request
    this.socket.on('data', (chunk) => this.onData(chunk));
    // A reset or a server crash fails the request in flight instead of hanging the bench.
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('close', () => this.fail(new Error(`connection to ${this.host} closed`)));
  }

  static async open(url, options) {
    const connection = new RawHttpConnection(url, options);
    await connection.ready;
    return connection;
  }

  /** POSTs `body` (a string) and resolves with { status, headers, body }. */
  post(body, headers, options) {
    return this.request('POST', body, headers, options);
  }

  /**
   * Sends one request. `onHead(response)` runs when the status line and headers are in;
   * `onMessage(message)` receives each SSE message as it arrives (the body is then not kept).
   */
  request(method, body = '', headers = {}, { onHead, onMessage } = {}) {
    if (this.closed) return Promise.reject(new Error(`connection to ${this.host} is closed`));
    if (this.current) return Promise.reject(new Error('one request in flight per connection'));
    // One string, one write: head and body leave in the same packet.
    let head = `${method} ${this.path} HTTP/1.1\r\nHost: ${this.host}\r\n${this.fixedHeaders}`;
    head +=
      method === 'GET'
        ? 'Accept: text/event-stream\r\n'
        : `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
    for (const name in headers) head += `${name}: ${headers[name]}\r\n`;
    return new Promise((resolve, reject) => {
      this.current = { resolve, reject, onHead, onMessage, response: null };
      this.socket.write(`${head}\r\n${body}`);
    });
  }

  close() {
    this.closed = true;
    this.socket.destroy();
  }

  fail(error) {
    this.closed = true;
    const current = this.current;
    this.current = null;
    // A stream that ends with its connection (no chunked terminator) is still a complete answer.
    if (current?.response && current.framing === 'close') current.resolve(current.response);
    else current?.reject(error);
  }

  onData(chunk) {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    while (this.current && this.step());
  }

  /* Parses as much of the buffer as it can; true if it finished a response and may go on. */
  step() {
    const current = this.current;
    if (!current.response) {
      const headEnd = this.buffer.indexOf('\r\n\r\n');
      if (headEnd === -1) return false;
      const lines = this.buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
      const headers = {};
      for (let i = 1; i < lines.length; i++) {
        const colon = lines[i].indexOf(':');
        headers[lines[i].slice(0, colon).toLowerCase()] = lines[i].slice(colon + 1).trim();
      }
      current.response = { status: Number(lines[0].split(' ')[1]), headers, body: '' };
      this.buffer = this.buffer.subarray(headEnd + 4);
      const sse = (headers['content-type'] ?? '').startsWith('text/event-stream');
      current.sse = sse && current.onMessage ? new SseParser() : null;
      if (headers['content-length'] !== undefined) {
        current.framing = 'length';
        current.remaining = Number(headers['content-length']);
      } else if (headers['transfer-encoding'] === 'chunked') {
        current.framing = 'chunked';
      } else if (sse) {
        current.framing = 'close';
      } else {
        current.framing = 'length';
        current.remaining = 0;
      }
      current.onHead?.(current.response);
    }
    if (current.framing === 'length') {
      if (this.buffer.length < current.remaining) return false;
      this.text(current, this.buffer.subarray(0, current.remaining));
      this.buffer = this.buffer.subarray(current.remaining);
      return this.finish(current);
    }
    if (current.framing === 'close') {
      this.text(current, this.buffer);
      this.buffer = Buffer.alloc(0);
      return false;
    }
    for (;;) {
      const lineEnd = this.buffer.indexOf('\r\n');
      if (lineEnd === -1) return false;
      const size = parseInt(this.buffer.subarray(0, lineEnd).toString('latin1'), 16);
      const end = lineEnd + 2 + size + 2;
      if (this.buffer.length < end) return false;
      if (size === 0) {
        this.buffer = this.buffer.subarray(end);
        return this.finish(current);
      }
      this.text(current, this.buffer.subarray(lineEnd + 2, end - 2));
      this.buffer = this.buffer.subarray(end);
    }
  }

  text(current, bytes) {
    if (!bytes.length) return;
    if (!current.sse) {
      current.response.body += bytes.toString('utf8');
      return;
    }
    for (const event of current.sse.push(bytes.toString('utf8'))) {
      if (isMessage(event)) current.onMessage(JSON.parse(event.data));
    }
  }

  finish(current) {
    this.current = null;
    current.resolve(current.response);
    return true;
  }
}

/** The JSON-RPC message a response carries (the last `data:` line of an SSE body). */
export function messageOf(response) {
  if ((response.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    // The response is the stream's last message; the body is complete, so end its last event.
    const last = new SseParser().push(`${response.body}\n\n`).filter(isMessage).at(-1);
    return last ? JSON.parse(last.data) : null;
  }
  return response.body ? JSON.parse(response.body) : null;
}
