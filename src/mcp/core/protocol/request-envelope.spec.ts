import type { McpWardenError } from '../errors/mcp-warden.error.js';
import { metaOf, readEra, type McpEraReading } from './request-envelope.js';

const VERSION = 'io.modelcontextprotocol/protocolVersion';
const CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';

function withMeta(meta: Record<string, unknown>): Record<string, unknown> {
  return { name: 'echo', _meta: meta };
}

function errorOf(reading: McpEraReading): McpWardenError {
  if (!('error' in reading)) throw new Error(`expected an error, got ${JSON.stringify(reading)}`);
  return reading.error;
}

describe('readEra', () => {
  it.each([
    ['no params', undefined],
    ['params that are not an object', 'tools/list'],
    ['params without _meta', { name: 'echo' }],
    ['a _meta that is not an object', { _meta: 'modern' }],
    ['a _meta without the protocol-version key', { _meta: { [CAPABILITIES]: {} } }],
  ])('reads %s as the legacy era', (_label, params) => {
    expect(readEra(params)).toEqual({ era: 'legacy' });
  });

  it('reads a full envelope as the modern era with its version, capabilities and log level', () => {
    const reading = readEra(
      withMeta({
        [VERSION]: '2026-07-28',
        [CAPABILITIES]: { elicitation: { form: {} } },
        [LOG_LEVEL]: 'debug',
      }),
    );
    expect(reading).toEqual({
      era: 'modern',
      envelope: {
        protocolVersion: '2026-07-28',
        clientCapabilities: { elicitation: { form: {} } },
        logLevel: 'debug',
      },
    });
  });

  it('keeps the declared capability extensions', () => {
    const capabilities = { extensions: { 'io.example/tasks': { poll: true } } };
    const reading = readEra(withMeta({ [VERSION]: '2026-07-28', [CAPABILITIES]: capabilities }));
    expect(reading).toMatchObject({ envelope: { clientCapabilities: capabilities } });
  });

  it('leaves the log level undefined when the envelope names none', () => {
    const reading = readEra(withMeta({ [VERSION]: '2026-07-28', [CAPABILITIES]: {} }));
    expect(reading).toEqual({
      era: 'modern',
      envelope: { protocolVersion: '2026-07-28', clientCapabilities: {}, logLevel: undefined },
    });
  });

  it.each([
    ['a numeric protocol version', { [VERSION]: 20260728, [CAPABILITIES]: {} }, VERSION],
    ['a null protocol version', { [VERSION]: null, [CAPABILITIES]: {} }, VERSION],
    ['missing clientCapabilities', { [VERSION]: '2026-07-28' }, CAPABILITIES],
    ['null clientCapabilities', { [VERSION]: '2026-07-28', [CAPABILITIES]: null }, CAPABILITIES],
    ['array clientCapabilities', { [VERSION]: '2026-07-28', [CAPABILITIES]: [] }, CAPABILITIES],
    ['string clientCapabilities', { [VERSION]: '2026-07-28', [CAPABILITIES]: 'all' }, CAPABILITIES],
    [
      'the log level "loud"',
      { [VERSION]: '2026-07-28', [CAPABILITIES]: {}, [LOG_LEVEL]: 'loud' },
      LOG_LEVEL,
    ],
  ])('refuses %s with -32602 in the modern era', (_label, meta, key) => {
    const reading = readEra(withMeta(meta));
    expect(reading.era).toBe('modern');
    const error = errorOf(reading);
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(key);
    expect(error.message).toContain('2026-07-28');
  });

  it('refuses an unsupported version with -32022 naming the supported and requested versions', () => {
    const error = errorOf(readEra(withMeta({ [VERSION]: '1900-01-01', [CAPABILITIES]: {} })));
    expect(error.code).toBe(-32022);
    expect(error.data).toEqual({ supported: ['2026-07-28'], requested: '1900-01-01' });
  });

  it('treats a legacy version behind the modern key as unsupported, not as the legacy era', () => {
    const error = errorOf(readEra(withMeta({ [VERSION]: '2025-11-25', [CAPABILITIES]: {} })));
    expect(error.code).toBe(-32022);
    expect(error.data).toEqual({ supported: ['2026-07-28'], requested: '2025-11-25' });
  });

  it('reports a malformed envelope before an unsupported version', () => {
    expect(errorOf(readEra(withMeta({ [VERSION]: '1900-01-01' }))).code).toBe(-32602);
    expect(errorOf(readEra(withMeta({ [VERSION]: '1900-01-01', [CAPABILITIES]: 'x' }))).code).toBe(
      -32602,
    );
    expect(
      errorOf(
        readEra(withMeta({ [VERSION]: '1900-01-01', [CAPABILITIES]: {}, [LOG_LEVEL]: 'loud' })),
      ).code,
    ).toBe(-32602);
  });

  it('reports a non-string version before missing capabilities', () => {
    const error = errorOf(readEra(withMeta({ [VERSION]: 7 })));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(VERSION);
  });
});

describe('metaOf', () => {
  it('returns the _meta object of params, and undefined for anything else', () => {
    expect(metaOf({ _meta: { a: 1 } })).toEqual({ a: 1 });
    expect(metaOf({ _meta: [1] })).toBeUndefined();
    expect(metaOf({})).toBeUndefined();
    expect(metaOf(null)).toBeUndefined();
  });
});
