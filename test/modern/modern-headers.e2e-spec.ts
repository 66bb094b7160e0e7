import { HTTP_VARIANTS, type HttpTestApp } from '../support/http-app.js';
import {
  bootModernApp,
  envelope,
  MODERN,
  modernMessage,
  postModern,
  readJson,
  resetFixture,
  SERVER_INFO_KEY,
} from './modern-app.js';

/*
 * The modern POST's refusals before anything runs (raw fetch): the request
 * envelope (-32602, -32022) and the routing headers that must agree with the
 * body (-32020): MCP-Protocol-Version, Mcp-Method, Mcp-Name and Mcp-Param-*.
 * Each is HTTP 400 with a JSON-RPC error body that names the request's id.
 */

const b64 = (text: string) => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
const echo = (text = 'a') => ({ name: 'echo', arguments: { text } });
const route = (args: Record<string, unknown>) => ({ name: 'route', arguments: args });

/** A -32020 error body for request `id`, with the mismatch the server names. */
function headerMismatch(id: number | string, header: string, body: string) {
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: -32020,
      message: `Bad Request: the request headers and body disagree: ${body}`,
      data: { mismatch: { header, body } },
    },
  };
}

describe.each(HTTP_VARIANTS)('modern request headers and envelope (%s)', (variant) => {
  let t: HttpTestApp;

  beforeAll(async () => {
    t = await bootModernApp(variant);
  });
  afterAll(() => t.close());
  beforeEach(() => resetFixture());

  async function expectRefusal(response: Response, status: number, body: object) {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(await readJson(response)).toEqual(body);
  }

  async function expectEcho(response: Response, id: number | string, text = 'a') {
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({
      jsonrpc: '2.0',
      id,
      result: {
        content: [{ type: 'text', text: `echo: ${text}` }],
        resultType: 'complete',
        _meta: { [SERVER_INFO_KEY]: { name: 'http-test', version: '1.0.0' } },
      },
    });
  }

  describe('the request envelope', () => {
    it('the MCP-Protocol-Version header names the modern revision but the body has no _meta: 400 -32602', async () => {
      const response = await postModern(t, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      await expectRefusal(response, 400, {
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32602,
          message:
            'Invalid params: the MCP-Protocol-Version header names protocol revision 2026-07-28, but the request is missing the required per-request envelope key(s): _meta',
          data: { envelope: { missing: ['_meta'] } },
        },
      });
    });

    it('_meta names the version but no clientCapabilities: 400 -32602', async () => {
      const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN };
      const response = await postModern(t, {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/list',
        params: { _meta: meta },
      });
      await expectRefusal(response, 400, {
        jsonrpc: '2.0',
        id: 2,
        error: {
          code: -32602,
          message:
            'Invalid _meta envelope for protocol revision 2026-07-28: io.modelcontextprotocol/clientCapabilities: missing',
        },
      });
    });

    it('clientCapabilities that is not an object: 400 -32602', async () => {
      const response = await postModern(t, {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/list',
        params: { _meta: { ...envelope(), 'io.modelcontextprotocol/clientCapabilities': 'all' } },
      });
      await expectRefusal(response, 400, {
        jsonrpc: '2.0',
        id: 3,
        error: {
          code: -32602,
          message:
            'Invalid _meta envelope for protocol revision 2026-07-28: io.modelcontextprotocol/clientCapabilities: expected an object',
        },
      });
    });

    it('a log level that is not one ("loud"): 400 -32602', async () => {
      const message = modernMessage(
        4,
        'tools/list',
        {},
        {},
        {
          'io.modelcontextprotocol/logLevel': 'loud',
        },
      );
      await expectRefusal(await postModern(t, message), 400, {
        jsonrpc: '2.0',
        id: 4,
        error: {
          code: -32602,
          message:
            'Invalid _meta envelope for protocol revision 2026-07-28: io.modelcontextprotocol/logLevel: not a log level',
        },
      });
    });

    it('a well-formed envelope naming a revision not served: 400 -32022 with supported and requested', async () => {
      const message = {
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/list',
        params: {
          _meta: { ...envelope(), 'io.modelcontextprotocol/protocolVersion': '2027-01-01' },
        },
      };
      const response = await postModern(t, message, { 'mcp-protocol-version': '2027-01-01' });
      await expectRefusal(response, 400, {
        jsonrpc: '2.0',
        id: 5,
        error: {
          code: -32022,
          message: 'Unsupported protocol version: 2027-01-01',
          data: { supported: [MODERN], requested: '2027-01-01' },
        },
      });
    });
  });

  describe('MCP-Protocol-Version', () => {
    it('missing: 400 -32020', async () => {
      const response = await postModern(t, modernMessage(10, 'tools/list'), {
        'mcp-protocol-version': undefined,
      });
      await expectRefusal(
        response,
        400,
        headerMismatch(
          10,
          '(missing)',
          'the body envelope names protocol version 2026-07-28 but the required MCP-Protocol-Version header is absent',
        ),
      );
    });

    it('naming another version than the envelope: 400 -32020', async () => {
      const response = await postModern(t, modernMessage(11, 'tools/list'), {
        'mcp-protocol-version': '2025-11-25',
      });
      await expectRefusal(
        response,
        400,
        headerMismatch(
          11,
          '2025-11-25',
          'the body envelope names protocol version 2026-07-28 but the MCP-Protocol-Version header names 2025-11-25',
        ),
      );
    });
  });

  describe('Mcp-Method', () => {
    it('missing: 400 -32020', async () => {
      const response = await postModern(t, modernMessage(20, 'tools/list'), {
        'mcp-method': undefined,
      });
      await expectRefusal(
        response,
        400,
        headerMismatch(
          20,
          '(missing)',
          'the body names method tools/list but the required Mcp-Method header is absent',
        ),
      );
    });

    it('another method: 400 -32020', async () => {
      const response = await postModern(t, modernMessage(21, 'tools/list'), {
        'mcp-method': 'prompts/list',
      });
      await expectRefusal(
        response,
        400,
        headerMismatch(
          21,
          'prompts/list',
          'the body names method tools/list but the Mcp-Method header names prompts/list',
        ),
      );
    });

    it('the same method in another case: 400 -32020 (values are case-sensitive)', async () => {
      const response = await postModern(t, modernMessage(22, 'tools/list'), {
        'mcp-method': 'Tools/List',
      });
      await expectRefusal(
        response,
        400,
        headerMismatch(
          22,
          'Tools/List',
          'the body names method tools/list but the Mcp-Method header names Tools/List',
        ),
      );
    });

    it('header names are case-insensitive: MCP-METHOD is accepted', async () => {
      const response = await postModern(t, modernMessage(23, 'tools/call', echo()), {
        'mcp-method': undefined,
        'MCP-METHOD': 'tools/call',
      });
      await expectEcho(response, 23);
    });
  });

  describe('Mcp-Name', () => {
    it('missing on tools/call: 400 -32020', async () => {
      const response = await postModern(t, modernMessage(30, 'tools/call', echo()), {
        'mcp-name': undefined,
      });
      await expectRefusal(
        response,
        400,
        headerMismatch(
          30,
          '(missing)',
          'the body carries params.name="echo" but the required Mcp-Name header is absent',
        ),
      );
    });

    it('naming another tool: 400 -32020', async () => {
      const response = await postModern(t, modernMessage(31, 'tools/call', echo()), {
        'mcp-name': 'purge',
      });
      await expectRefusal(
        response,
        400,
        headerMismatch(
          31,
          'purge',
          'the body carries params.name="echo" but the Mcp-Name header names "purge"',
        ),
      );
    });

    it('another URI on resources/read, and another prompt on prompts/get: 400 -32020', async () => {
      const read = modernMessage(32, 'resources/read', { uri: 'modern://readme' });
      await expectRefusal(
        await postModern(t, read, { 'mcp-name': 'modern://other' }),
        400,
        headerMismatch(
          32,
          'modern://other',
          'the body carries params.uri="modern://readme" but the Mcp-Name header names "modern://other"',
        ),
      );
      const get = modernMessage(33, 'prompts/get', { name: 'summary', arguments: { topic: 'x' } });
      await expectRefusal(
        await postModern(t, get, { 'mcp-name': 'other' }),
        400,
        headerMismatch(
          33,
          'other',
          'the body carries params.name="summary" but the Mcp-Name header names "other"',
        ),
      );
    });

    it('the Base64 sentinel of the same name is accepted', async () => {
      const response = await postModern(t, modernMessage(34, 'tools/call', echo()), {
        'mcp-name': b64('echo'),
      });
      await expectEcho(response, 34);
    });

    it('a sentinel whose payload is not canonical Base64: 400 -32020', async () => {
      const response = await postModern(t, modernMessage(35, 'tools/call', echo()), {
        'mcp-name': '=?base64?ZWNob?=',
      });
      await expectRefusal(
        response,
        400,
        headerMismatch(
          35,
          '=?base64?ZWNob?=',
          'the Mcp-Name header carries an invalid Base64 sentinel value',
        ),
      );
    });

    it('a value with only the sentinel prefix is literal, so it mismatches: 400 -32020', async () => {
      const response = await postModern(t, modernMessage(36, 'tools/call', echo()), {
        'mcp-name': '=?base64?ZWNobw==',
      });
      await expectRefusal(
        response,
        400,
        headerMismatch(
          36,
          '=?base64?ZWNobw==',
          'the body carries params.name="echo" but the Mcp-Name header names "=?base64?ZWNobw=="',
        ),
      );
    });
  });

  describe('Mcp-Param-* (x-mcp-header arguments)', () => {
    it('missing while the body carries the argument: 400 -32020', async () => {
      const response = await postModern(
        t,
        modernMessage(40, 'tools/call', route({ region: 'eu' })),
      );
      await expectRefusal(
        response,
        400,
        headerMismatch(
          40,
          'Mcp-Param-Region',
          'the body carries arguments.region="eu" but the Mcp-Param-Region header is absent',
        ),
      );
    });

    it('another value: 400 -32020', async () => {
      const response = await postModern(
        t,
        modernMessage(41, 'tools/call', route({ region: 'eu' })),
        {
          'mcp-param-region': 'us',
        },
      );
      await expectRefusal(
        response,
        400,
        headerMismatch(
          41,
          'Mcp-Param-Region',
          'the Mcp-Param-Region header decodes to "us" but the body carries arguments.region="eu"',
        ),
      );
    });

    it('a malformed Base64 sentinel: 400 -32020', async () => {
      const response = await postModern(
        t,
        modernMessage(42, 'tools/call', route({ region: 'eu' })),
        {
          'mcp-param-region': '=?base64?!!!!?=',
        },
      );
      await expectRefusal(
        response,
        400,
        headerMismatch(
          42,
          'Mcp-Param-Region',
          'the Mcp-Param-Region header carries an invalid Base64 sentinel value',
        ),
      );
    });

    it('the plain value, and the Base64 sentinel of a non-ASCII value, are accepted', async () => {
      const plain = await postModern(t, modernMessage(43, 'tools/call', route({ region: 'eu' })), {
        'mcp-param-region': 'eu',
      });
      expect(plain.status).toBe(200);
      expect((await readJson(plain)).result.content).toEqual([{ type: 'text', text: 'region eu' }]);
      const encoded = await postModern(
        t,
        modernMessage(44, 'tools/call', route({ region: 'Zürich' })),
        { 'mcp-param-region': b64('Zürich') },
      );
      expect(encoded.status).toBe(200);
      expect((await readJson(encoded)).result.content).toEqual([
        { type: 'text', text: 'region Zürich' },
      ]);
    });

    it('an argument the body leaves out, or sends as null, expects no header', async () => {
      const absent = await postModern(t, modernMessage(45, 'tools/call', route({ region: 'eu' })), {
        'mcp-param-region': 'eu',
      });
      expect(absent.status).toBe(200);
      expect((await readJson(absent)).result.content).toEqual([
        { type: 'text', text: 'region eu' },
      ]);
      const nulled = route({ region: 'eu', count: null });
      const response = await postModern(t, modernMessage(48, 'tools/call', nulled), {
        'mcp-param-region': 'eu',
      });
      // Past the header checks: the tool's schema (an integer) then refuses null, in-band.
      expect(response.status).toBe(200);
      expect((await readJson(response)).result).toMatchObject({
        isError: true,
        resultType: 'complete',
      });
    });

    it('an integer is compared numerically: "3.0" matches 3, "4" does not', async () => {
      const args = route({ region: 'eu', count: 3 });
      const same = await postModern(t, modernMessage(46, 'tools/call', args), {
        'mcp-param-region': 'eu',
        'mcp-param-count': '3.0',
      });
      expect(same.status).toBe(200);
      expect((await readJson(same)).result.content).toEqual([
        { type: 'text', text: 'region eu x3' },
      ]);
      const other = await postModern(t, modernMessage(47, 'tools/call', args), {
        'mcp-param-region': 'eu',
        'mcp-param-count': '4',
      });
      await expectRefusal(
        other,
        400,
        headerMismatch(
          47,
          'Mcp-Param-Count',
          'the Mcp-Param-Count header decodes to "4" but the body carries arguments.count=3',
        ),
      );
    });
  });

  describe('a capability the request did not declare', () => {
    it('a handler asking for elicitation without it: 400 -32021 with requiredCapabilities', async () => {
      const response = await postModern(
        t,
        modernMessage(50, 'tools/call', { name: 'greet', arguments: {} }),
      );
      await expectRefusal(response, 400, {
        jsonrpc: '2.0',
        id: 50,
        error: {
          code: -32021,
          message: 'Missing required client capability: elicitation',
          data: { requiredCapabilities: { elicitation: {} } },
        },
      });
    });
  });

  describe('every refusal names the request id it refuses', () => {
    it.each([
      ['a number', 901],
      ['a string', 'req-901'],
    ])('id %s: -32602, -32020, -32022 and -32601 bodies echo it', async (_kind, id) => {
      const noMeta = await postModern(t, { jsonrpc: '2.0', id, method: 'tools/list' });
      expect(await readJson(noMeta)).toMatchObject({ id, error: { code: -32602 } });
      const mismatch = await postModern(t, modernMessage(id, 'tools/list'), {
        'mcp-method': 'prompts/list',
      });
      expect(await readJson(mismatch)).toMatchObject({ id, error: { code: -32020 } });
      const future = {
        jsonrpc: '2.0',
        id,
        method: 'tools/list',
        params: {
          _meta: { ...envelope(), 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
        },
      };
      const unsupported = await postModern(t, future, { 'mcp-protocol-version': '2099-01-01' });
      expect(await readJson(unsupported)).toMatchObject({ id, error: { code: -32022 } });
      const unknown = await postModern(t, modernMessage(id, 'foo/bar'));
      expect(unknown.status).toBe(404);
      expect(await readJson(unknown)).toEqual({
        jsonrpc: '2.0',
        id,
        error: { code: -32601, message: 'Method not found: foo/bar' },
      });
    });
  });
});
