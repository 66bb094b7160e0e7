// @ts-check
/*
 * Boots a built scratch app (dist/main.js) on one Node and drives each HTTP route kind under
 * the app's global prefix `api`, with bearer tokens from a local key: the 401 challenge, the
 * protected resource metadata it names, Streamable HTTP (initialize, initialized, tools/call),
 * the HTTP+SSE pair and the operator console's routes. The app's middleware must have run on the MCP answers.
 */
import { spawn } from 'node:child_process';
import { clearTimeout, setTimeout } from 'node:timers';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { CheckError, childEnv, children } from './processes.mjs';

const PROTOCOL_VERSION = '2025-11-25';
const BOOT_TIMEOUT_MS = 30_000;
const ISSUER = 'https://issuer.pack-check.test';
const AUDIENCE = 'https://mcp.pack-check.test/api/mcp';

/** A key pair, the app's environment naming its public half, and a token minter. */
export async function bearerSetup() {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  const env = {
    PACK_CHECK_ISSUER: ISSUER,
    PACK_CHECK_AUDIENCE: AUDIENCE,
    PACK_CHECK_JWKS: JSON.stringify({ keys: [jwk] }),
  };
  const token = (sub) =>
    new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
  return { env, token };
}

/** Starts `entry` on `node`; resolves once it printed `listening <port>`. */
function boot(dir, node, env, entry) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(node, [entry], {
      cwd: dir,
      env: childEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    const state = { child, stdout: '', stderr: '' };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new CheckError('the app did not print `listening <port>` in time', state.stderr));
    }, BOOT_TIMEOUT_MS);
    child.stdout.on('data', (chunk) => {
      state.stdout += chunk;
      const port = /^listening (\d+)$/m.exec(state.stdout)?.[1];
      if (port) {
        clearTimeout(timer);
        resolvePromise({ state, port: Number(port) });
      }
    });
    child.stderr.on('data', (chunk) => (state.stderr += chunk));
    child.on('exit', (code) => {
      children.delete(child);
      clearTimeout(timer);
      reject(new CheckError(`the app exited (${code}) before listening`, state.stderr));
    });
  });
}

/** Stops a booted app with SIGTERM (SIGKILL after 5 s). */
function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolvePromise) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolvePromise(undefined);
    });
    child.kill('SIGTERM');
  });
}

/** The JSON-RPC messages of an SSE body or stream chunk. */
function sseMessages(text) {
  return text
    .split(/\r?\n\r?\n/)
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('\n'),
    )
    .filter((data) => data.startsWith('{'))
    .map((data) => JSON.parse(data));
}

function expect(condition, message, detail = '') {
  if (!condition) throw new CheckError(`${message}${detail ? `: ${detail}` : ''}`);
}

async function post(url, message, headers = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(message),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const json = type.includes('text/event-stream')
    ? sseMessages(text).find((reply) => reply.id === message.id)
    : type.includes('json') && text
      ? JSON.parse(text)
      : null;
  return { response, text, json };
}

const initialize = (id) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: {
    protocolVersion: PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'pack-check', version: '1.0.0' },
  },
});
const addCall = (id) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'add', arguments: { a: 2, b: 3 } },
});

async function challengeAndMetadata(base) {
  const refused = await post(`${base}/api/mcp`, initialize(1));
  const challenge = refused.response.headers.get('www-authenticate') ?? '';
  expect(
    refused.response.status === 401,
    'no token: expected 401',
    String(refused.response.status),
  );
  expect(refused.response.headers.get('x-request-tag') === 'pack-check', 'app middleware not run');
  const named = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
  expect(Boolean(named), 'the 401 challenge names no resource_metadata', challenge);
  const metadata = await fetch(`${base}${new URL(named ?? '').pathname}`);
  const body = await metadata.json();
  expect(metadata.status === 200 && body.resource === AUDIENCE, 'protected resource metadata');
}

async function streamable(base, auth) {
  const url = `${base}/api/mcp`;
  const init = await post(url, initialize(1), auth);
  const session = init.response.headers.get('mcp-session-id');
  expect(init.response.status === 200 && Boolean(session), 'initialize', init.text);
  const headers = {
    ...auth,
    'mcp-session-id': session ?? '',
    'mcp-protocol-version': PROTOCOL_VERSION,
  };
  const initialized = await post(
    url,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    headers,
  );
  expect(initialized.response.status === 202, 'notifications/initialized', initialized.text);
  const call = await post(url, addCall(2), headers);
  expect(call.json?.result?.structuredContent?.sum === 5, 'tools/call', call.text);
  expect(call.response.headers.get('x-request-tag') === 'pack-check', 'app middleware not run');
}

/** The HTTP+SSE pair: GET …/sse names the message endpoint, whose answers come on the stream. */
async function ssePair(base, auth) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 10_000);
  try {
    const stream = await fetch(`${base}/api/sse`, {
      headers: { ...auth, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(stream.status === 200 && stream.body !== null, 'GET /api/sse', String(stream.status));
    const reader = /** @type {ReadableStream<Uint8Array>} */ (stream.body).getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    /** Reads the stream until `found` returns a value. */
    const readUntil = async (found) => {
      for (;;) {
        const value = found(buffered);
        if (value) return value;
        const chunk = await reader.read();
        if (chunk.done) throw new CheckError('the SSE stream ended early', buffered);
        buffered += decoder.decode(chunk.value, { stream: true });
      }
    };
    const endpoint = await readUntil((text) => /event: endpoint\r?\ndata: (\S+)/.exec(text)?.[1]);
    const messages = new URL(endpoint, `${base}/api/sse`).href;
    const reply = (id) => (text) => sseMessages(text).find((message) => message.id === id);
    const accepted = await post(messages, initialize(1), auth);
    expect(accepted.response.status === 202, 'POST /api/messages', accepted.text);
    const init = await readUntil(reply(1));
    expect(init.result?.protocolVersion === PROTOCOL_VERSION, 'initialize over SSE');
    await post(messages, { jsonrpc: '2.0', method: 'notifications/initialized' }, auth);
    await post(messages, addCall(2), auth);
    const call = await readUntil(reply(2));
    expect(call.result?.structuredContent?.sum === 5, 'tools/call over SSE', JSON.stringify(call));
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

/**
 * The operator console's routes, signed out: the page sends the browser to sign in, the
 * stylesheet is served, the JSON API refuses. (Signing in needs a live issuer; the library's
 * own suites do that.)
 */
async function consoleRoutes(base) {
  const page = await fetch(`${base}/api/approvals`, { redirect: 'manual' });
  const login = page.headers.get('location') ?? '';
  const loginPath = new URL(login, base).pathname;
  expect(page.status === 303 && loginPath === '/api/approvals/login', 'console page', login);
  const style = await fetch(`${base}/api/approvals/console.css`);
  expect(style.status === 200 && (await style.text()).length > 0, 'console stylesheet');
  const asks = await fetch(`${base}/api/approvals/asks`);
  expect(asks.status === 401, 'console asks without a session', String(asks.status));
}

/**
 * Boots the app (`entry`: tsc's dist/main.js, or its bundle's launcher) on `node` and drives
 * every route kind; resolves with the app's stderr.
 */
export async function driveHttpApp(dir, node, bearer, entry = 'dist/main.js') {
  const booted = await boot(dir, node, bearer.env, entry);
  const base = `http://127.0.0.1:${booted.port}`;
  const auth = { authorization: `Bearer ${await bearer.token('pack-check')}` };
  try {
    await challengeAndMetadata(base);
    await streamable(base, auth);
    await ssePair(base, auth);
    await consoleRoutes(base);
  } catch (error) {
    if (error instanceof CheckError) error.output ||= booted.state.stderr;
    throw error;
  } finally {
    children.delete(booted.state.child);
    await stop(booted.state.child);
  }
  return booted.state.stderr;
}
