// @ts-check
// node:http for the hostile clients: every socket is bound to a loopback address of its own
// (127.0.0.2 and up), so the server's per-address quotas keep them apart from the honest
// clients on 127.0.0.1. Every request is bounded in time; nothing here throws on a refusal.
import http from 'node:http';
import { SseParser, isMessage } from '../../test/support/sse-parser.mjs';

export const ACCEPT_BOTH = 'application/json, text/event-stream';

/**
 * @typedef {object} Answer
 * @property {number} status 0 when the connection failed before a status line
 * @property {Record<string, string | string[] | undefined>} headers
 * @property {string} body the body, or for an SSE answer its raw event text
 * @property {string} [error] why the exchange failed, when it did
 */

/** Keep-alive agents, one per local address. */
const agents = new Map();

/** @param {string} localAddress */
export function agentFor(localAddress) {
  let agent = agents.get(localAddress);
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, localAddress, maxSockets: Infinity });
    agents.set(localAddress, agent);
  }
  return agent;
}

/** Closes every hostile socket still open. */
export function destroyAgents() {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/**
 * One request from `localAddress`, its whole answer read (an SSE answer until the server ends
 * it). Resolves with status 0 and `error` on a connection failure or after `timeoutMs`.
 * @param {URL} url
 * @param {{ localAddress: string, method?: string, headers?: Record<string, string>, body?: string, timeoutMs?: number }} options
 * @returns {Promise<Answer>}
 */
export function request(
  url,
  { localAddress, method = 'POST', headers = {}, body, timeoutMs = 30_000 },
) {
  return new Promise((resolve) => {
    let settled = false;
    /** @param {Answer} answer */
    const done = (answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        agent: agentFor(localAddress),
        headers: {
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', accept: ACCEPT_BOTH }),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.once('end', () =>
          done({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
        );
        res.once('error', (error) =>
          done({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text,
            error: error.message,
          }),
        );
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      done({ status: 0, headers: {}, body: '', error: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
    req.once('error', (error) => done({ status: 0, headers: {}, body: '', error: error.message }));
    req.end(body);
  });
}

/**
 * The JSON-RPC messages of an answer: its JSON body, or the `data:` lines of its SSE events.
 * @param {Answer} answer
 * @returns {Record<string, any>[]}
 */
export function messagesOf(answer) {
  const type = String(answer.headers['content-type'] ?? '');
  try {
    if (type.startsWith('application/json')) {
      const parsed = JSON.parse(answer.body);
      return Array.isArray(parsed) ? parsed : [parsed];
    }
    if (type.startsWith('text/event-stream')) {
      // The stream is complete: end its last event too.
      return new SseParser()
        .push(`${answer.body}\n\n`)
        .filter(isMessage)
        .map((event) => JSON.parse(event.data));
    }
  } catch {
    // counted as unreadable by the caller
  }
  return [];
}

/**
 * Opens a session from `localAddress`: initialize (+ notifications/initialized). Resolves with
 * its id, or with the refusal's status.
 * @param {URL} url
 * @param {string} localAddress
 * @param {object} [capabilities]
 * @returns {Promise<{ sessionId?: string, status: number, retryAfter: boolean }>}
 */
export async function openSession(url, localAddress, capabilities = {}) {
  const answer = await request(url, {
    localAddress,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities,
        clientInfo: { name: 'soak-hostile', version: '1.0.0' },
      },
    }),
    timeoutMs: 10_000,
  });
  const sessionId = answer.headers['mcp-session-id'];
  const retryAfter = answer.headers['retry-after'] !== undefined;
  if (answer.status !== 200 || typeof sessionId !== 'string') {
    return { status: answer.status, retryAfter };
  }
  await request(url, {
    localAddress,
    headers: { 'mcp-session-id': sessionId },
    body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    timeoutMs: 10_000,
  });
  return { sessionId, status: 200, retryAfter };
}

/**
 * Ends a session (DELETE); resolves with the status.
 * @param {URL} url
 * @param {string} localAddress
 * @param {string} sessionId
 */
export async function closeSession(url, localAddress, sessionId) {
  const answer = await request(url, {
    localAddress,
    method: 'DELETE',
    headers: { 'mcp-session-id': sessionId },
    timeoutMs: 10_000,
  });
  return answer.status;
}
