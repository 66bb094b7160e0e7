import { HTTP_VARIANTS } from '../support/http-app.js';
import { envelope, MODERN, modernMessage, postModern, readJson } from './modern-app.js';
import { expectRefusal, modernAppForSuite } from './modern-header-checks.js';

/*
 * The modern POST's refusals of the request envelope before anything runs
 * (raw fetch): -32602, -32022, an undeclared capability; each is HTTP 400
 * with a JSON-RPC error body that names the request's id.
 */

describe.each(HTTP_VARIANTS)('modern request envelope (%s)', (variant) => {
  const app = modernAppForSuite(variant);

  describe('the request envelope', () => {
    it('the MCP-Protocol-Version header names the modern revision but the body has no _meta: 400 -32602', async () => {
      const response = await postModern(app(), { jsonrpc: '2.0', id: 1, method: 'tools/list' });
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
      const response = await postModern(app(), {
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
      const response = await postModern(app(), {
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
      await expectRefusal(await postModern(app(), message), 400, {
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
      const response = await postModern(app(), message, { 'mcp-protocol-version': '2027-01-01' });
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

  describe('a capability the request did not declare', () => {
    it('a handler asking for elicitation without it: 400 -32021 with requiredCapabilities', async () => {
      const response = await postModern(
        app(),
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
      const noMeta = await postModern(app(), { jsonrpc: '2.0', id, method: 'tools/list' });
      expect(await readJson(noMeta)).toMatchObject({ id, error: { code: -32602 } });
      const mismatch = await postModern(app(), modernMessage(id, 'tools/list'), {
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
      const unsupported = await postModern(app(), future, { 'mcp-protocol-version': '2099-01-01' });
      expect(await readJson(unsupported)).toMatchObject({ id, error: { code: -32022 } });
      const unknown = await postModern(app(), modernMessage(id, 'foo/bar'));
      expect(unknown.status).toBe(404);
      expect(await readJson(unknown)).toEqual({
        jsonrpc: '2.0',
        id,
        error: { code: -32601, message: 'Method not found: foo/bar' },
      });
    });
  });
});
