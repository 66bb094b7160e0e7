import { HTTP_VARIANTS } from '../support/http-app.js';
import { modernMessage, postModern } from './modern-app.js';
import {
  b64,
  echo,
  expectEcho,
  expectRefusal,
  headerMismatch,
  modernAppForSuite,
} from './modern-header-checks.js';

/*
 * The routing headers that must agree with the body (-32020, HTTP 400, the
 * request id named): MCP-Protocol-Version, Mcp-Method and Mcp-Name.
 */

describe.each(HTTP_VARIANTS)('modern routing headers (%s)', (variant) => {
  const app = modernAppForSuite(variant);

  describe('MCP-Protocol-Version', () => {
    it('missing: 400 -32020', async () => {
      const response = await postModern(app(), modernMessage(10, 'tools/list'), {
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
      const response = await postModern(app(), modernMessage(11, 'tools/list'), {
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
      const response = await postModern(app(), modernMessage(20, 'tools/list'), {
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
      const response = await postModern(app(), modernMessage(21, 'tools/list'), {
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
      const response = await postModern(app(), modernMessage(22, 'tools/list'), {
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
      const response = await postModern(app(), modernMessage(23, 'tools/call', echo()), {
        'mcp-method': undefined,
        'MCP-METHOD': 'tools/call',
      });
      await expectEcho(response, 23);
    });
  });

  describe('Mcp-Name', () => {
    it('missing on tools/call: 400 -32020', async () => {
      const response = await postModern(app(), modernMessage(30, 'tools/call', echo()), {
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
      const response = await postModern(app(), modernMessage(31, 'tools/call', echo()), {
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
        await postModern(app(), read, { 'mcp-name': 'modern://other' }),
        400,
        headerMismatch(
          32,
          'modern://other',
          'the body carries params.uri="modern://readme" but the Mcp-Name header names "modern://other"',
        ),
      );
      const get = modernMessage(33, 'prompts/get', { name: 'summary', arguments: { topic: 'x' } });
      await expectRefusal(
        await postModern(app(), get, { 'mcp-name': 'other' }),
        400,
        headerMismatch(
          33,
          'other',
          'the body carries params.name="summary" but the Mcp-Name header names "other"',
        ),
      );
    });

    it('the Base64 sentinel of the same name is accepted', async () => {
      const response = await postModern(app(), modernMessage(34, 'tools/call', echo()), {
        'mcp-name': b64('echo'),
      });
      await expectEcho(response, 34);
    });

    it('a sentinel whose payload is not canonical Base64: 400 -32020', async () => {
      const response = await postModern(app(), modernMessage(35, 'tools/call', echo()), {
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
      const response = await postModern(app(), modernMessage(36, 'tools/call', echo()), {
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
});
