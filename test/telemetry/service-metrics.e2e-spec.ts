import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SignJWT } from 'jose';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  getMetricsFromIterator,
  type PromData,
  type PromHistogramData,
  type PromMetric,
  type PromMetrics,
} from 'prom2javascript';
import { HttpServiceChild } from '../support/http-service.js';
import { generateSigningKey, type SigningKey } from '../support/oidc/index.js';
import { makeDataDir, removeDataDir } from '../support/stdio-child.js';

/*
 * The built notes service (dist/bundle/main.mjs; `npm run build` first) serves
 * its metrics as Prometheus text at /metrics, on the MCP listener, behind the
 * MCP gate. The scrape is read with a real text-format parser (prom2javascript:
 * it keeps labelled histogram series apart, in the order the OpenTelemetry
 * exporter writes them).
 */

async function scrape(base: string, init: RequestInit = {}) {
  const response = await fetch(`${base}/metrics`, init);
  const text = await response.text();
  return { response, text };
}

function parse(text: string): Promise<PromMetrics> {
  return getMetricsFromIterator(text.split('\n')[Symbol.iterator]());
}

function family(families: PromMetrics, name: string): PromMetric {
  const found = families[name];
  if (!found) throw new Error(`no ${name} in ${Object.keys(families).join(', ')}`);
  return found;
}

/** The one series of `f` whose labels include `labels`. */
function series<T extends PromData | PromHistogramData>(
  f: PromMetric,
  labels: Record<string, string>,
): T {
  const found = (f.data as T[]).filter((point) =>
    Object.entries(labels).every(([key, value]) => point.labels[key] === value),
  );
  expect(found).toHaveLength(1);
  return found[0];
}

const gauge = (families: PromMetrics, name: string) =>
  (family(families, name).data as PromData[])[0].value;

describe('the notes service /metrics (no auth, loopback)', () => {
  let dataDir: string;
  let service: HttpServiceChild;
  let base: string;
  let client: Client;

  beforeAll(async () => {
    dataDir = await makeDataDir();
    service = new HttpServiceChild(dataDir);
    const url = await service.url;
    base = new URL(url).origin;
    client = new Client({ name: 'jest-scrape', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  });

  afterAll(async () => {
    await client?.close();
    await service?.dispose();
    await removeDataDir(dataDir);
  });

  it('exposes the conventions histograms, the seam counters and the gauges after known calls', async () => {
    await client.callTool({ name: 'search_notes', arguments: { query: 'plan' } });
    await client.callTool({ name: 'search_notes', arguments: { query: 'q3' } });
    await client.callTool({ name: 'shred_everything', arguments: {} });

    const { response, text } = await scrape(base);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const families = await parse(text);

    const duration = family(families, 'mcp_server_operation_duration');
    expect(duration.type).toBe('histogram');
    const search = series<PromHistogramData>(duration, { gen_ai_tool_name: 'search_notes' });
    expect(search.labels).toMatchObject({
      mcp_method_name: 'tools/call',
      gen_ai_operation_name: 'execute_tool',
      network_transport: 'tcp',
      mcp_protocol_version: '2025-11-25',
    });
    expect(search.count).toBe(2);
    expect(search.sum).toBeGreaterThan(0);
    expect(Object.keys(search.buckets)).toEqual(
      expect.arrayContaining(['0.01', '0.1', '1', '300', '+Inf']),
    );
    expect(search.buckets['+Inf']).toBe(2);
    // The service has no `shred_everything`: a name it did not register is labelled `_unknown`.
    const shred = series<PromHistogramData>(duration, { gen_ai_tool_name: '_unknown' });
    expect(shred.labels.error_type).toBe('tool_error');

    const decisions = family(families, 'mcp_warden_seam_decisions_total');
    expect(decisions.type).toBe('counter');
    const decided = (seam: string, decision: string) =>
      series<PromData>(decisions, { mcp_warden_seam: seam, mcp_warden_decision: decision }).value;
    expect(decided('tool', 'allow')).toBe(2);
    expect(decided('tool', 'deny')).toBe(1);

    expect(family(families, 'mcp_warden_connections').type).toBe('gauge');
    expect(gauge(families, 'mcp_warden_connections')).toBe(1);
    expect(gauge(families, 'mcp_warden_requests_in_flight')).toBe(0);
    expect(gauge(families, 'mcp_warden_approvals_parked')).toBe(0);
    expect(gauge(families, 'mcp_warden_client_requests_pending')).toBe(0);
  });

  it('serves the applied policy set as mcp_warden_policy_info{version}', async () => {
    const { text } = await scrape(base);
    const info = family(await parse(text), 'mcp_warden_policy_info');
    expect(info.type).toBe('gauge');
    const points = info.data as PromData[];
    expect(points).toHaveLength(1);
    expect(points[0].labels.version).toMatch(/^[0-9a-f]{16}$/);
    expect(Number(points[0].value)).toBe(1);
  });

  it('names the service on its metrics (target_info service_name), not unknown_service', async () => {
    const { text } = await scrape(base);
    const info = family(await parse(text), 'target_info');
    series<PromData>(info, { service_name: 'mcp-warden-notes' });
    expect(text).not.toContain('unknown_service');
  });

  it('refuses a foreign Origin like /mcp does (DNS rebinding)', async () => {
    const { response, text } = await scrape(base, { headers: { origin: 'https://evil.example' } });
    expect(response.status).toBe(403);
    expect(JSON.parse(text)).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
  });
});

describe('the notes service /metrics with bearer auth on', () => {
  const issuer = 'https://issuer.test';
  let key: SigningKey;
  let jwks: Server;
  let dataDir: string;
  let service: HttpServiceChild;
  let base: string;
  let audience: string;

  beforeAll(async () => {
    key = await generateSigningKey();
    // The issuer's published keys, on loopback: the service fetches them to verify tokens.
    jwks = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [key.publicJwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const { port } = jwks.address() as AddressInfo;
    dataDir = await makeDataDir();
    audience = 'http://127.0.0.1/mcp';
    service = new HttpServiceChild(dataDir, {
      OAUTH_ISSUER: issuer,
      OAUTH_AUDIENCE: audience,
      OAUTH_JWKS_URI: `http://127.0.0.1:${port}/jwks`,
    });
    base = new URL(await service.url).origin;
  });

  afterAll(async () => {
    await service?.dispose();
    await new Promise((resolve) => jwks?.close(resolve));
    await removeDataDir(dataDir);
  });

  const token = () =>
    new SignJWT({ scope: 'notes:read' })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject('prometheus')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key.privateKey);

  it('answers an unauthenticated scrape 401 with the same challenge as /mcp', async () => {
    const { response, text } = await scrape(base);
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate');
    expect(challenge).toMatch(/^Bearer resource_metadata="[^"]+"/);
    expect(JSON.parse(text)).toMatchObject({ jsonrpc: '2.0', error: { message: 'Unauthorized' } });

    const mcp = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toBe(challenge);
  });

  it('refuses a token it cannot verify, and serves a valid one', async () => {
    const forged = await scrape(base, { headers: { authorization: 'Bearer not.a.jwt' } });
    expect(forged.response.status).toBe(401);

    const { response, text } = await scrape(base, {
      headers: { authorization: `Bearer ${await token()}` },
    });
    expect(response.status).toBe(200);
    expect(family(await parse(text), 'mcp_warden_connections').type).toBe('gauge');
  });
});
