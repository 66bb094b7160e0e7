import { McpToolError } from '../../core/errors/mcp-tool.error.js';
import { checkedElicitAnswer, compileRequestedSchema } from './elicit-answer.check.js';

const schema = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email' },
    colours: { type: 'array', items: { type: 'string', enum: ['red', 'blue'] }, maxItems: 1 },
  },
  required: ['email'],
};

describe('compileRequestedSchema', () => {
  it('refuses a schema that is not JSON Schema, as a server bug', () => {
    expect(() => compileRequestedSchema({ type: 'object', properties: 3 })).toThrow(TypeError);
  });
});

describe('checkedElicitAnswer', () => {
  const check = compileRequestedSchema(schema);

  it('returns an accept whose content matches, as received', () => {
    const answer = { action: 'accept', content: { email: 'a@b.co', colours: ['red'] } };
    expect(checkedElicitAnswer(answer, check)).toBe(answer);
  });

  it.each([
    [
      { email: 'a@b.co', colours: ['green'] },
      'colours.0 must be equal to one of the allowed values',
    ],
    [{ email: 'a@b.co', colours: ['red', 'blue'] }, 'colours must NOT have more than 1 items'],
    [{}, 'email is required'],
  ])('turns an accept of %j into a tool error', (content, problem) => {
    expect(() => checkedElicitAnswer({ action: 'accept', content }, check)).toThrow(
      new McpToolError(`The client's answer does not match the requested schema: ${problem}`),
    );
  });

  it('leaves decline and cancel alone, content or not', () => {
    expect(checkedElicitAnswer({ action: 'decline', content: { x: 1 } }, check)).toEqual({
      action: 'decline',
      content: { x: 1 },
    });
    expect(checkedElicitAnswer({ action: 'cancel' }, check)).toEqual({ action: 'cancel' });
  });

  it.each([[{}], [{ action: 'maybe' }], [{ action: 'accept', content: { nested: { a: 1 } } }]])(
    'refuses the malformed result %j',
    (answer) => {
      expect(() => checkedElicitAnswer(answer, check)).toThrow(
        'The client answered the elicitation with a malformed result',
      );
    },
  );

  it('checks only the shape when no schema applies (URL mode)', () => {
    expect(checkedElicitAnswer({ action: 'accept' })).toEqual({ action: 'accept' });
  });
});
