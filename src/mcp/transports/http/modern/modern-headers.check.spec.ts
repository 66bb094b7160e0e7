import type { IncomingMessage } from 'node:http';
import { McpHeaderMismatchError } from '../../../core/protocol/era.errors.js';
import { checkParamHeaders, checkStandardHeaders } from './modern-headers.check.js';

const V = '2026-07-28';

function req(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

function mismatch(run: () => void): McpHeaderMismatchError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(McpHeaderMismatchError);
    expect((error as McpHeaderMismatchError).code).toBe(-32020);
    return error as McpHeaderMismatchError;
  }
  throw new Error('expected a -32020 header mismatch');
}

function b64(text: string): string {
  return `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

describe('checkStandardHeaders', () => {
  const call = { name: 'get_weather', arguments: {} };
  const good = { 'mcp-protocol-version': V, 'mcp-method': 'tools/call', 'mcp-name': 'get_weather' };

  it('accepts headers that agree with the body', () => {
    expect(() => checkStandardHeaders(req(good), 'tools/call', call, V)).not.toThrow();
  });

  it('accepts header values with surrounding whitespace', () => {
    const padded = {
      'mcp-protocol-version': ` ${V} `,
      'mcp-method': ' tools/call',
      'mcp-name': 'get_weather ',
    };
    expect(() => checkStandardHeaders(req(padded), 'tools/call', call, V)).not.toThrow();
  });

  it('refuses a missing MCP-Protocol-Version', () => {
    const { 'mcp-protocol-version': _v, ...rest } = good;
    const error = mismatch(() => checkStandardHeaders(req(rest), 'tools/call', call, V));
    expect(error.data).toEqual({
      mismatch: {
        header: '(missing)',
        body: `the body envelope names protocol version ${V} but the required MCP-Protocol-Version header is absent`,
      },
    });
  });

  it('refuses an MCP-Protocol-Version that differs from the envelope', () => {
    const headers = { ...good, 'mcp-protocol-version': '2025-11-25' };
    const error = mismatch(() => checkStandardHeaders(req(headers), 'tools/call', call, V));
    expect(error.data).toEqual({
      mismatch: {
        header: '2025-11-25',
        body: `the body envelope names protocol version ${V} but the MCP-Protocol-Version header names 2025-11-25`,
      },
    });
  });

  it('refuses a missing Mcp-Method', () => {
    const { 'mcp-method': _m, ...rest } = good;
    const error = mismatch(() => checkStandardHeaders(req(rest), 'tools/call', call, V));
    expect(error.data).toEqual({
      mismatch: {
        header: '(missing)',
        body: 'the body names method tools/call but the required Mcp-Method header is absent',
      },
    });
  });

  it('refuses an Mcp-Method that differs from the body, compared case-sensitively', () => {
    const headers = { ...good, 'mcp-method': 'TOOLS/CALL' };
    const error = mismatch(() => checkStandardHeaders(req(headers), 'tools/call', call, V));
    expect(error.data).toEqual({
      mismatch: {
        header: 'TOOLS/CALL',
        body: 'the body names method tools/call but the Mcp-Method header names TOOLS/CALL',
      },
    });
  });

  it('refuses a missing Mcp-Name when the body names a tool', () => {
    const { 'mcp-name': _n, ...rest } = good;
    const error = mismatch(() => checkStandardHeaders(req(rest), 'tools/call', call, V));
    expect(error.data).toEqual({
      mismatch: {
        header: '(missing)',
        body: 'the body carries params.name="get_weather" but the required Mcp-Name header is absent',
      },
    });
  });

  it('refuses an Mcp-Name that differs from the body', () => {
    const headers = { ...good, 'mcp-name': 'delete_all' };
    const error = mismatch(() => checkStandardHeaders(req(headers), 'tools/call', call, V));
    expect(error.data).toEqual({
      mismatch: {
        header: 'delete_all',
        body: 'the body carries params.name="get_weather" but the Mcp-Name header names "delete_all"',
      },
    });
  });

  it('refuses an Mcp-Name carrying a malformed Base64 sentinel', () => {
    const headers = { ...good, 'mcp-name': '=?base64?QR==?=' };
    const error = mismatch(() => checkStandardHeaders(req(headers), 'tools/call', call, V));
    expect(error.data).toEqual({
      mismatch: {
        header: '=?base64?QR==?=',
        body: 'the Mcp-Name header carries an invalid Base64 sentinel value',
      },
    });
  });

  it('refuses a malformed sentinel even when the body names nothing', () => {
    const headers = { ...good, 'mcp-name': '=?base64?*?=' };
    mismatch(() => checkStandardHeaders(req(headers), 'tools/call', {}, V));
  });

  it('accepts a Base64-sentinel Mcp-Name that decodes to a non-ASCII name', () => {
    const headers = { ...good, 'mcp-name': b64('météo') };
    const body = { name: 'météo', arguments: {} };
    expect(() => checkStandardHeaders(req(headers), 'tools/call', body, V)).not.toThrow();
  });

  it('refuses a Base64-sentinel Mcp-Name that decodes to another name', () => {
    const headers = { ...good, 'mcp-name': b64('other') };
    const error = mismatch(() => checkStandardHeaders(req(headers), 'tools/call', call, V));
    expect(error.data).toEqual({
      mismatch: {
        header: b64('other'),
        body: 'the body carries params.name="get_weather" but the Mcp-Name header names "other"',
      },
    });
  });

  it('checks Mcp-Name against params.uri for resources/read', () => {
    const headers = {
      'mcp-protocol-version': V,
      'mcp-method': 'resources/read',
      'mcp-name': 'notes://1',
    };
    expect(() =>
      checkStandardHeaders(req(headers), 'resources/read', { uri: 'notes://1' }, V),
    ).not.toThrow();
    const error = mismatch(() =>
      checkStandardHeaders(req(headers), 'resources/read', { uri: 'notes://2' }, V),
    );
    expect(error.data).toEqual({
      mismatch: {
        header: 'notes://1',
        body: 'the body carries params.uri="notes://2" but the Mcp-Name header names "notes://1"',
      },
    });
  });

  it('checks Mcp-Name against params.name for prompts/get', () => {
    const headers = { 'mcp-protocol-version': V, 'mcp-method': 'prompts/get' };
    const error = mismatch(() =>
      checkStandardHeaders(req(headers), 'prompts/get', { name: 'greet' }, V),
    );
    expect(error.data).toEqual({
      mismatch: {
        header: '(missing)',
        body: 'the body carries params.name="greet" but the required Mcp-Name header is absent',
      },
    });
  });

  it('expects no Mcp-Name when the body names nothing', () => {
    const headers = { 'mcp-protocol-version': V, 'mcp-method': 'tools/call' };
    expect(() => checkStandardHeaders(req(headers), 'tools/call', {}, V)).not.toThrow();
    expect(() => checkStandardHeaders(req(headers), 'tools/call', { name: 7 }, V)).not.toThrow();
  });

  it('ignores Mcp-Name on methods that name nothing', () => {
    const headers = {
      'mcp-protocol-version': V,
      'mcp-method': 'tools/list',
      'mcp-name': 'anything',
    };
    expect(() => checkStandardHeaders(req(headers), 'tools/list', {}, V)).not.toThrow();
  });
});

describe('checkParamHeaders', () => {
  const schema = {
    type: 'object',
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      count: { type: 'integer', 'x-mcp-header': 'Count' },
      dryRun: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
      target: {
        type: 'object',
        properties: { id: { type: 'string', 'x-mcp-header': 'Target-Id' } },
      },
    },
  };

  it('accepts headers that agree with every declared argument', () => {
    const headers = {
      'mcp-param-region': 'us-west-1',
      'mcp-param-count': '42',
      'mcp-param-dry-run': 'true',
      'mcp-param-target-id': 't-1',
    };
    const args = { region: 'us-west-1', count: 42, dryRun: true, target: { id: 't-1' } };
    expect(() => checkParamHeaders(req(headers), schema, args)).not.toThrow();
  });

  it('refuses a missing header when the body carries the argument', () => {
    const error = mismatch(() => checkParamHeaders(req({}), schema, { region: 'us-west-1' }));
    expect(error.data).toEqual({
      mismatch: {
        header: 'Mcp-Param-Region',
        body: 'the body carries arguments.region="us-west-1" but the Mcp-Param-Region header is absent',
      },
    });
  });

  it('refuses a missing header for a nested argument, naming its path', () => {
    const error = mismatch(() => checkParamHeaders(req({}), schema, { target: { id: 't-1' } }));
    expect(error.data).toEqual({
      mismatch: {
        header: 'Mcp-Param-Target-Id',
        body: 'the body carries arguments.target.id="t-1" but the Mcp-Param-Target-Id header is absent',
      },
    });
  });

  it('refuses a header that differs from the argument', () => {
    const headers = { 'mcp-param-region': 'eu-central-1' };
    const error = mismatch(() => checkParamHeaders(req(headers), schema, { region: 'us-west-1' }));
    expect(error.data).toEqual({
      mismatch: {
        header: 'Mcp-Param-Region',
        body: 'the Mcp-Param-Region header decodes to "eu-central-1" but the body carries arguments.region="us-west-1"',
      },
    });
  });

  it('refuses a header with a malformed Base64 sentinel', () => {
    const headers = { 'mcp-param-region': '=?base64?/w==?=' };
    const error = mismatch(() => checkParamHeaders(req(headers), schema, { region: 'us-west-1' }));
    expect(error.data).toEqual({
      mismatch: {
        header: 'Mcp-Param-Region',
        body: 'the Mcp-Param-Region header carries an invalid Base64 sentinel value',
      },
    });
  });

  it('accepts a Base64-sentinel header that decodes to the argument', () => {
    const headers = { 'mcp-param-region': b64('zürich') };
    expect(() => checkParamHeaders(req(headers), schema, { region: 'zürich' })).not.toThrow();
  });

  it.each(['42', '42.0', '42.000', ' 42 '])(
    'compares the integer 42 numerically with "%s"',
    (raw) => {
      expect(() =>
        checkParamHeaders(req({ 'mcp-param-count': raw }), schema, { count: 42 }),
      ).not.toThrow();
    },
  );

  it.each(['042', '4.2e1', '+42', '42.', '0x2a'])(
    'refuses the non-canonical number "%s" for 42',
    (raw) => {
      const error = mismatch(() =>
        checkParamHeaders(req({ 'mcp-param-count': raw }), schema, { count: 42 }),
      );
      expect(error.data).toEqual({
        mismatch: {
          header: 'Mcp-Param-Count',
          body: `the Mcp-Param-Count header decodes to ${JSON.stringify(raw.trim())} but the body carries arguments.count=42`,
        },
      });
    },
  );

  it('refuses another number', () => {
    const error = mismatch(() =>
      checkParamHeaders(req({ 'mcp-param-count': '43' }), schema, { count: 42 }),
    );
    expect(error.data).toEqual({
      mismatch: {
        header: 'Mcp-Param-Count',
        body: 'the Mcp-Param-Count header decodes to "43" but the body carries arguments.count=42',
      },
    });
  });

  it('compares a string argument as text, never numerically', () => {
    const headers = { 'mcp-param-region': '42.0' };
    mismatch(() => checkParamHeaders(req(headers), schema, { region: '42' }));
  });

  it('compares booleans as their JSON text, case-sensitively', () => {
    expect(() =>
      checkParamHeaders(req({ 'mcp-param-dry-run': 'false' }), schema, { dryRun: false }),
    ).not.toThrow();
    mismatch(() =>
      checkParamHeaders(req({ 'mcp-param-dry-run': 'True' }), schema, { dryRun: true }),
    );
  });

  it('expects no header for a null or absent argument', () => {
    expect(() => checkParamHeaders(req({}), schema, { region: null })).not.toThrow();
    expect(() => checkParamHeaders(req({}), schema, {})).not.toThrow();
    expect(() => checkParamHeaders(req({}), schema, undefined)).not.toThrow();
    expect(() => checkParamHeaders(req({}), schema, { target: null })).not.toThrow();
  });

  it('does not check a header sent for an argument the body does not carry', () => {
    expect(() => checkParamHeaders(req({ 'mcp-param-region': 'x' }), schema, {})).not.toThrow();
  });

  it('expects no header for an argument that has no header form (an object)', () => {
    const objectSchema = { properties: { filter: { type: 'object', 'x-mcp-header': 'Filter' } } };
    expect(() => checkParamHeaders(req({}), objectSchema, { filter: { a: 1 } })).not.toThrow();
  });

  it('checks nothing for a schema without declarations', () => {
    expect(() => checkParamHeaders(req({}), { type: 'object' }, { region: 'x' })).not.toThrow();
  });
});
