import { completeResult } from './modern-result.js';

const SERVER = { name: 'warden', version: '1.2.3' };
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

describe('completeResult', () => {
  it('adds resultType "complete" and the server’s identity in _meta', () => {
    expect(completeResult({ tools: [] }, SERVER, undefined)).toEqual({
      tools: [],
      resultType: 'complete',
      _meta: { [SERVER_INFO]: SERVER },
    });
  });

  it('keeps the handler’s own fields and _meta entries', () => {
    const result = {
      content: [{ type: 'text', text: 'hi' }],
      _meta: { 'example.com/trace': 't1' },
    };
    expect(completeResult(result, SERVER, undefined)).toEqual({
      content: [{ type: 'text', text: 'hi' }],
      resultType: 'complete',
      _meta: { 'example.com/trace': 't1', [SERVER_INFO]: SERVER },
    });
  });

  it('adds ttlMs and cacheScope when given a cache hint', () => {
    expect(completeResult({ tools: [] }, SERVER, { ttlMs: 5_000, cacheScope: 'private' })).toEqual({
      tools: [],
      resultType: 'complete',
      _meta: { [SERVER_INFO]: SERVER },
      ttlMs: 5_000,
      cacheScope: 'private',
    });
  });

  it('keeps a zero ttlMs', () => {
    const shaped = completeResult({}, SERVER, { ttlMs: 0, cacheScope: 'public' });
    expect(shaped).toMatchObject({ ttlMs: 0, cacheScope: 'public' });
  });

  it('leaves out ttlMs and cacheScope without a cache hint', () => {
    const shaped = completeResult({}, SERVER, undefined);
    expect(shaped).not.toHaveProperty('ttlMs');
    expect(shaped).not.toHaveProperty('cacheScope');
  });

  it('overrides a resultType and serverInfo the handler set itself', () => {
    const result = { resultType: 'input_required', _meta: { [SERVER_INFO]: { name: 'spoof' } } };
    expect(completeResult(result, SERVER, undefined)).toEqual({
      resultType: 'complete',
      _meta: { [SERVER_INFO]: SERVER },
    });
  });

  it('does not change the handler’s result object', () => {
    const result = { _meta: { a: 1 } };
    completeResult(result, SERVER, { ttlMs: 1, cacheScope: 'public' });
    expect(result).toEqual({ _meta: { a: 1 } });
  });
});
