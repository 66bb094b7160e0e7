import type { IncomingMessage } from 'node:http';
import { prefersEventStream, requireAccept } from './accept.js';

const withAccept = (accept?: string) => ({ headers: { accept } }) as unknown as IncomingMessage;
const BOTH = ['application/json', 'text/event-stream'];

describe('Accept on a Streamable HTTP POST', () => {
  it.each([
    ['text/event-stream', true],
    ['text/event-stream, application/json', true],
    [' TEXT/Event-Stream ; q=1, application/json', true],
    ['text/event-stream\t,application/json', true],
    ['application/json, text/event-stream', false],
    ['text/event-streams, application/json', false],
    ['text/event-stream-x', false],
    ['*/*', false],
    ['', false],
    [undefined, false],
  ])('Accept %j prefers a stream: %s', (accept, expected) => {
    expect(prefersEventStream(withAccept(accept))).toBe(expected);
  });

  it('takes a header listing both types, in any order and case, or a wildcard', () => {
    for (const accept of [
      'application/json, text/event-stream',
      'Text/Event-Stream;q=0.9, APPLICATION/JSON',
      '*/*',
    ]) {
      expect(() => requireAccept(withAccept(accept), BOTH)).not.toThrow();
    }
  });

  it('refuses with 406, naming both types, when either is missing', () => {
    for (const accept of ['application/json', 'text/event-stream', undefined]) {
      expect(() => requireAccept(withAccept(accept), BOTH)).toThrow(
        expect.objectContaining({
          status: 406,
          message: 'Not Acceptable: Accept must include application/json and text/event-stream',
        }),
      );
    }
  });
});
