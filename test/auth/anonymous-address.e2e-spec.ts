import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import { McpModule } from '../../src/index.js';
import {
  HTTP_VARIANTS,
  HttpTestApp,
  initializeParams,
  type HttpVariant,
} from '../support/http-app.js';

/*
 * Anonymous callers' quotas are kept per client address, as the host
 * framework resolves it with the app's own proxy trust: with no proxy
 * trusted, the socket's address (a forged X-Forwarded-For changes nothing);
 * behind a trusted proxy (Express `trust proxy`, Fastify `trustProxy`), the
 * forwarded address, so callers behind one proxy do not share one budget. The
 * proxy trusted is the test's own address (loopback), never every hop: only
 * the rightmost X-Forwarded-For hop it did not write counts. An IPv6 caller
 * counts by its /64, an IPv4-mapped one as its IPv4 address.
 */

/* Half a call per second: a bucket of one call, refilled only after two seconds. */
const ONE_CALL = { callsPerSecondPerPrincipal: 0.5 };

async function boot(variant: HttpVariant, trustProxy: boolean): Promise<HttpTestApp> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      McpModule.forRoot({
        name: 'address-test',
        version: '1.0.0',
        transport: 'http',
        requireAuthorization: false,
        limits: ONE_CALL,
        http: variant === 'express (no fast path)' ? { fastPath: false } : {},
      }),
    ],
  }).compile();
  let app: INestApplication;
  if (variant === 'fastify') {
    const adapter = new FastifyAdapter(trustProxy ? { trustProxy: '127.0.0.1' } : {});
    app = moduleRef.createNestApplication(adapter, { logger: false });
  } else {
    const express = moduleRef.createNestApplication<NestExpressApplication>({ logger: false });
    if (trustProxy) express.set('trust proxy', 'loopback');
    app = express;
  }
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return new HttpTestApp(app, port, '/mcp');
}

/** An anonymous initialize whose request says it was forwarded for `address`; its status. */
async function initializeFor(t: HttpTestApp, address: string): Promise<number> {
  const response = await t.post(t.message('initialize', initializeParams()), {
    'x-forwarded-for': address,
  });
  await response.arrayBuffer();
  return response.status;
}

describe.each(HTTP_VARIANTS)('anonymous callers are keyed by client address (%s)', (variant) => {
  let t: HttpTestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('no proxy trusted: a forged X-Forwarded-For changes nothing; one address, one budget', async () => {
    t = await boot(variant, false);
    expect(await initializeFor(t, '203.0.113.1')).toBe(200);
    expect(await initializeFor(t, '203.0.113.2')).toBe(429);
  });

  it('a trusted proxy: each forwarded address has its own budget', async () => {
    t = await boot(variant, true);
    expect(await initializeFor(t, '203.0.113.1')).toBe(200);
    expect(await initializeFor(t, '203.0.113.1')).toBe(429);
    expect(await initializeFor(t, '203.0.113.2')).toBe(200);
  });

  it('several hops: only the rightmost untrusted one counts; the client picks the leftmost', async () => {
    t = await boot(variant, true);
    expect(await initializeFor(t, '198.51.100.1, 203.0.113.1')).toBe(200);
    expect(await initializeFor(t, '198.51.100.2, 203.0.113.1')).toBe(429);
    expect(await initializeFor(t, '203.0.113.1')).toBe(429);
    expect(await initializeFor(t, '198.51.100.1, 203.0.113.2')).toBe(200);
  });

  it('a forwarded address with a port: the address counts, not the connection', async () => {
    t = await boot(variant, true);
    expect(await initializeFor(t, '203.0.113.1:1111')).toBe(200);
    expect(await initializeFor(t, '203.0.113.1:2222')).toBe(429);
    expect(await initializeFor(t, '203.0.113.1')).toBe(429);
    expect(await initializeFor(t, '[2001:db8::1]:1')).toBe(200);
    expect(await initializeFor(t, '[2001:db8::1]:2')).toBe(429);
  });

  it('IPv6: addresses in one /64 share a budget; another /64 has its own', async () => {
    t = await boot(variant, true);
    expect(await initializeFor(t, '2001:db8::1')).toBe(200);
    expect(await initializeFor(t, '2001:db8::2')).toBe(429);
    expect(await initializeFor(t, '2001:db8::ffff:ffff:ffff:ffff')).toBe(429);
    expect(await initializeFor(t, '2001:db8:0:1::1')).toBe(200);
  });

  it('an IPv4-mapped IPv6 address shares the budget of its IPv4 address', async () => {
    t = await boot(variant, true);
    expect(await initializeFor(t, '203.0.113.5')).toBe(200);
    expect(await initializeFor(t, '::ffff:203.0.113.5')).toBe(429);
    expect(await initializeFor(t, '::ffff:203.0.113.6')).toBe(200);
  });
});
