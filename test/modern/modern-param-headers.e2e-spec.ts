import { HTTP_VARIANTS } from '../support/http-app.js';
import { modernMessage, postModern, readJson } from './modern-app.js';
import {
  b64,
  expectRefusal,
  headerMismatch,
  route,
  modernAppForSuite,
} from './modern-header-checks.js';

/*
 * Mcp-Param-* headers for x-mcp-header arguments: present, agreeing with the
 * body (Base64 sentinel, integers compared numerically), or -32020.
 */

describe.each(HTTP_VARIANTS)('modern Mcp-Param-* headers (%s)', (variant) => {
  const app = modernAppForSuite(variant);

  describe('Mcp-Param-* (x-mcp-header arguments)', () => {
    it('missing while the body carries the argument: 400 -32020', async () => {
      const response = await postModern(
        app(),
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
        app(),
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
        app(),
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
      const plain = await postModern(
        app(),
        modernMessage(43, 'tools/call', route({ region: 'eu' })),
        {
          'mcp-param-region': 'eu',
        },
      );
      expect(plain.status).toBe(200);
      expect((await readJson(plain)).result.content).toEqual([{ type: 'text', text: 'region eu' }]);
      const encoded = await postModern(
        app(),
        modernMessage(44, 'tools/call', route({ region: 'Zürich' })),
        { 'mcp-param-region': b64('Zürich') },
      );
      expect(encoded.status).toBe(200);
      expect((await readJson(encoded)).result.content).toEqual([
        { type: 'text', text: 'region Zürich' },
      ]);
    });

    it('an argument the body leaves out, or sends as null, expects no header', async () => {
      const absent = await postModern(
        app(),
        modernMessage(45, 'tools/call', route({ region: 'eu' })),
        {
          'mcp-param-region': 'eu',
        },
      );
      expect(absent.status).toBe(200);
      expect((await readJson(absent)).result.content).toEqual([
        { type: 'text', text: 'region eu' },
      ]);
      const nulled = route({ region: 'eu', count: null });
      const response = await postModern(app(), modernMessage(48, 'tools/call', nulled), {
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
      const same = await postModern(app(), modernMessage(46, 'tools/call', args), {
        'mcp-param-region': 'eu',
        'mcp-param-count': '3.0',
      });
      expect(same.status).toBe(200);
      expect((await readJson(same)).result.content).toEqual([
        { type: 'text', text: 'region eu x3' },
      ]);
      const other = await postModern(app(), modernMessage(47, 'tools/call', args), {
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
});
