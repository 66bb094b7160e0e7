import { relateToRequest } from '../../../core/protocol/related-request.js';
import type { McpHttpSettings } from '../http-settings.js';
import { McpHttpSession } from './http-session.js';

/* The settings a session reads: its event buffer and its streams' timings. */
const settings = {
  eventBufferSize: 100,
  keepAliveMs: 15_000,
  retryMs: 1_000,
  maxQueuedEvents: 100,
} as McpHttpSettings;

/* A response, marked as the server connection marks it for its request's stream. */
const answer = (id: number) => relateToRequest({ jsonrpc: '2.0' as const, id, result: {} }, id);

/*
 * Exchanges without a response object (a POST another instance received): they end when their
 * last request is answered or abandoned, which is what the session's routing table follows.
 */
describe('McpHttpSession routing of requests to their POST', () => {
  const session = () => new McpHttpSession('s', 'http:s', settings);

  it('an answered POST stops routing its ids; the other POSTs in flight keep theirs', () => {
    const http = session();
    http.openExchange(undefined, [1], false);
    http.openExchange(undefined, [2], false);
    http.openExchange(undefined, [3, 4], true);

    http.route(answer(1));
    expect(http.inFlight(1)).toBe(false);
    expect([2, 3, 4].map((id) => http.inFlight(id))).toEqual([true, true, true]);

    http.route(answer(3));
    expect(http.inFlight(3)).toBe(true); // its batch still waits for 4
    http.route(answer(4));
    expect([3, 4].map((id) => http.inFlight(id))).toEqual([false, false]);
    expect(http.inFlight(2)).toBe(true);
  });

  it('an id a later POST reused stays with that POST when the earlier one ends', () => {
    const http = session();
    const first = http.openExchange(undefined, [7], false);
    http.openExchange(undefined, [7], false);

    first.abandon(7);
    expect(http.inFlight(7)).toBe(true);
    http.route(answer(7));
    expect(http.inFlight(7)).toBe(false);
  });
});
