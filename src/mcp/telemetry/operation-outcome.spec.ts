import { metaGetter, metaOf } from './meta.getter.js';
import { NO_ANSWER, outcomeOf } from './operation-outcome.js';

describe('operation outcome', () => {
  it('maps an error response to its code and message, and an isError result to tool_error', () => {
    expect(
      outcomeOf({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } }),
    ).toEqual({ errorType: '-32601', statusCode: '-32601', message: 'Method not found' });
    expect(outcomeOf({ jsonrpc: '2.0', id: 1, result: { content: [], isError: true } })).toEqual({
      errorType: 'tool_error',
    });
    expect(outcomeOf({ jsonrpc: '2.0', id: 1, result: { content: [] } })).toEqual({});
    expect(outcomeOf({ jsonrpc: '2.0', id: 1, error: { code: 'x' } })).toMatchObject({
      errorType: '_OTHER',
    });
    expect(outcomeOf(null)).toBe(NO_ANSWER);
  });
});

describe('the _meta getter', () => {
  it('hands on only own string values of bounded length', () => {
    const meta = metaOf({ _meta: { traceparent: 't', tracestate: 7, baggage: 'b'.repeat(9_000) } });
    expect(metaGetter.get(meta, 'traceparent')).toBe('t');
    expect(metaGetter.get(meta, 'tracestate')).toBeUndefined();
    expect(metaGetter.get(meta, 'baggage')).toBeUndefined();
    expect(metaGetter.get(meta, 'toString')).toBeUndefined();
    expect(metaGetter.keys(meta)).toEqual(['traceparent', 'tracestate', 'baggage']);
    expect(metaOf({ _meta: [1] })).toBeUndefined();
    expect(metaOf('x')).toBeUndefined();
  });
});
