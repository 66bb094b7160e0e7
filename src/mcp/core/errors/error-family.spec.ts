import * as api from '../../../index.js';
import * as testing from '../../../testing/index.js';
import { McpInvalidTokenError } from '../../authentication/bearer-token.verifier.js';
import { ConsoleIssuerRefusal } from '../../approvals/console/console-oidc.client.js';
import { McpOutboundRequestError } from '../../engine/outbound/outbound-request.errors.js';
import { errorResponse } from '../../engine/dispatch/error-response.js';
import { McpClientGoneError } from '../http/client-gone.error.js';
import { McpHttpError } from '../http/mcp-http.error.js';
import { JsonRpcErrorCode } from '../protocol/error-codes.constants.js';
import { protocolErrorOf } from './sdk-errors.js';

/* Every error class the package exports, by its name: a new one joins this test by itself. */
const exported = Object.entries({ ...api, ...testing }).filter(
  ([name, value]) =>
    typeof value === 'function' && /(Error|Refusal)$/.test(name) && name !== 'McpError',
) as [string, new (...args: never[]) => unknown][];

describe('the error family', () => {
  it('finds the exported error classes', () => {
    expect(exported.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'McpWardenError',
        'McpToolError',
        'McpDefinitionError',
        'McpUnguardedSensitiveToolsError',
        'McpInvalidParamsError',
        'McpTestClientError',
      ]),
    );
  });

  it.each(exported)('%s extends McpWardenError', (_name, type) => {
    expect(type === api.McpWardenError || type.prototype instanceof api.McpWardenError).toBe(true);
  });

  it.each([
    ['McpInvalidTokenError', McpInvalidTokenError],
    ['ConsoleIssuerRefusal', ConsoleIssuerRefusal],
    ['McpOutboundRequestError', McpOutboundRequestError],
    ['McpHttpError', McpHttpError],
    ['McpClientGoneError', McpClientGoneError],
  ] as [string, unknown][])('internal %s extends McpWardenError', (_name, type) => {
    expect((type as { prototype: object }).prototype).toBeInstanceOf(api.McpWardenError);
  });

  describe('what reaches the dispatcher', () => {
    const internal = [
      new api.McpToolError('tool text'),
      new api.McpDefinitionError('tool', 'A.b', 'bad'),
      new api.McpUnguardedSensitiveToolsError(['x']),
      new McpInvalidTokenError('token text'),
      new ConsoleIssuerRefusal('issuer text'),
      new McpOutboundRequestError('timeout', 'elicitation timed out'),
      new McpHttpError(400, 'http text'),
    ];

    it.each(internal.map((error) => [error.name, error]))(
      '%s is answered as a bare -32603, its text kept out',
      (_name, error) => {
        expect(protocolErrorOf(error)).toBeUndefined();
        const response = errorResponse(1, error, 'tools/call') as {
          error: { code: number; message: string };
        };
        expect(response.error).toEqual({
          code: JsonRpcErrorCode.InternalError,
          message: 'Internal error',
        });
      },
    );

    it('a protocol error answers with its code, message and data', () => {
      const error = new api.McpInvalidParamsError('bad cursor');
      expect(protocolErrorOf(error)).toBe(error);
      const response = errorResponse(1, error, 'tools/list') as {
        error: { code: number; message: string };
      };
      expect(response.error).toMatchObject({ code: -32602, message: 'bad cursor' });
    });

    it('names each error by its class', () => {
      expect(internal.map((error) => error.name)).toEqual([
        'McpToolError',
        'McpDefinitionError',
        'McpUnguardedSensitiveToolsError',
        'McpInvalidTokenError',
        'ConsoleIssuerRefusal',
        'McpOutboundRequestError',
        'McpHttpError',
      ]);
    });
  });
});
