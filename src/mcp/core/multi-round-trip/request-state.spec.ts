import { bindingOf } from './request-state.js';

describe('bindingOf', () => {
  const call = { name: 'transfer', arguments: { to: 'bob', amount: 5, memo: { a: 1, b: [1, 2] } } };

  it('is the same for arguments whose keys are reordered (RFC 8785 canonical JSON)', () => {
    const reordered = {
      arguments: { memo: { b: [1, 2], a: 1 }, amount: 5, to: 'bob' },
      name: 'transfer',
    };
    expect(bindingOf('tools/call', reordered)).toBe(bindingOf('tools/call', call));
  });

  it('ignores fields other than the target and the arguments', () => {
    const withExtras = { ...call, _meta: { x: 1 }, requestState: 's', inputResponses: {} };
    expect(bindingOf('tools/call', withExtras)).toBe(bindingOf('tools/call', call));
  });

  it('treats absent arguments as empty arguments', () => {
    expect(bindingOf('tools/call', { name: 't' })).toBe(
      bindingOf('tools/call', { name: 't', arguments: {} }),
    );
  });

  it.each([
    ['another value', { ...call, arguments: { ...call.arguments, amount: 6 } }],
    ['a number written as a string', { ...call, arguments: { ...call.arguments, amount: '5' } }],
    ['an extra argument', { ...call, arguments: { ...call.arguments, extra: null } }],
    ['a nested change', { ...call, arguments: { ...call.arguments, memo: { a: 1, b: [2, 1] } } }],
    ['no arguments', { name: 'transfer' }],
    ['another tool', { ...call, name: 'transfer_all' }],
  ])('differs for %s', (_label, params) => {
    expect(bindingOf('tools/call', params)).not.toBe(bindingOf('tools/call', call));
  });

  it('differs for another method with the same target and arguments', () => {
    expect(bindingOf('prompts/get', call)).not.toBe(bindingOf('tools/call', call));
  });

  it('binds resources/read to its URI', () => {
    const read = (uri: string) => bindingOf('resources/read', { uri });
    expect(read('notes://1')).toBe(read('notes://1'));
    expect(read('notes://1')).not.toBe(read('notes://2'));
  });

  it('cannot be forged by moving text between the target and the method', () => {
    expect(bindingOf('tools/call', { name: 'a' })).not.toBe(bindingOf('tools/cal', { name: 'la' }));
  });
});
