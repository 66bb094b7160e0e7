import { protocolErrorOf } from './sdk-errors.js';
import { McpUrlElicitationRequiredError } from './url-elicitation-required.error.js';
import { McpWardenError } from './mcp-warden.error.js';

const elicitation = {
  elicitationId: 'e-1',
  url: 'https://example.com/connect?id=e-1',
  message: 'Connect your account',
};

describe('McpUrlElicitationRequiredError', () => {
  it('carries -32042 and the elicitations in url mode, kept as the code it was thrown with', () => {
    const error = new McpUrlElicitationRequiredError([elicitation]);
    expect(error).toBeInstanceOf(McpWardenError);
    expect(error.name).toBe('McpUrlElicitationRequiredError');
    expect(protocolErrorOf(error)).toMatchObject({
      code: -32042,
      message: 'This request requires more information.',
      data: { elicitations: [{ mode: 'url', ...elicitation }] },
    });
    expect(error.elicitations).toEqual([{ mode: 'url', ...elicitation }]);
  });

  it('takes a message of its own', () => {
    expect(new McpUrlElicitationRequiredError([elicitation], 'Sign in first').message).toBe(
      'Sign in first',
    );
  });

  it.each([
    ['no elicitation', []],
    ['an empty id', [{ ...elicitation, elicitationId: '' }]],
    ['a url that is no URL', [{ ...elicitation, url: 'connect here' }]],
    ['a javascript: url', [{ ...elicitation, url: 'javascript:alert(1)' }]],
  ])('refuses %s', (_label, elicitations) => {
    expect(() => new McpUrlElicitationRequiredError(elicitations)).toThrow(TypeError);
  });
});
