import { McpError as SdkV1Error, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError, UrlElicitationRequiredError } from '@modelcontextprotocol/server';
import { McpWardenError } from './mcp-warden.error.js';
import { fromSdkError } from './sdk-errors.js';

describe('fromSdkError', () => {
  it('keeps the code, message and data of the v1 SDK McpError', () => {
    const mapped = fromSdkError(new SdkV1Error(ErrorCode.InvalidParams, 'bad id', { id: 7 }));
    expect(mapped).toBeInstanceOf(McpWardenError);
    expect(mapped).toMatchObject({ code: -32602, data: { id: 7 } });
    expect(mapped!.message).toContain('bad id');
  });

  it('keeps the code of the v2 SDK ProtocolError and its subclasses', () => {
    expect(fromSdkError(new ProtocolError(-32002, 'gone', { uri: 'x://y' }))).toMatchObject({
      code: -32002,
      message: 'gone',
      data: { uri: 'x://y' },
    });
    const url = new UrlElicitationRequiredError([
      { mode: 'url', elicitationId: 'e1', url: 'https://example.com/auth', message: 'sign in' },
    ]);
    expect(fromSdkError(url)?.code).toBe(-32042);
  });

  it('leaves other errors alone, even ones with a numeric code', () => {
    expect(fromSdkError(Object.assign(new Error('ENOENT'), { code: -2 }))).toBeUndefined();
    expect(fromSdkError({ name: 'McpError', code: -32602 })).toBeUndefined();
    expect(fromSdkError('McpError')).toBeUndefined();
  });
});
