import { jest } from '@jest/globals';
import { McpTooManyRequestsError } from '../../errors/protocol.errors.js';
import { MemoryNonceStore } from './memory-nonce.store.js';

describe('MemoryNonceStore', () => {
  afterEach(() => jest.restoreAllMocks());

  it('consumes a nonce once: true the first time, false every later time', () => {
    const store = new MemoryNonceStore(10);
    const until = Date.now() + 60_000;
    expect(store.consume('n1', until)).toBe(true);
    expect(store.consume('n1', until)).toBe(false);
    expect(store.consume('n1', until)).toBe(false);
    expect(store.consume('n2', until)).toBe(true);
    expect(store.size).toBe(2);
  });

  it('sweeps expired nonces when full and then accepts a new one', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000);
    const store = new MemoryNonceStore(2);
    expect(store.consume('old-1', 1_500)).toBe(true);
    expect(store.consume('old-2', 1_500)).toBe(true);
    now.mockReturnValue(2_000);
    expect(store.consume('new', 9_000)).toBe(true);
    expect(store.size).toBe(1);
  });

  it('keeps live nonces when sweeping: only the expired ones go', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000);
    const store = new MemoryNonceStore(2);
    store.consume('expiring', 1_500);
    store.consume('live', 9_000);
    now.mockReturnValue(2_000);
    expect(store.consume('new', 9_000)).toBe(true);
    expect(store.size).toBe(2);
    expect(store.consume('live', 9_000)).toBe(false);
  });

  it('refuses with -31429 when full of live nonces rather than forgetting one', () => {
    jest.spyOn(Date, 'now').mockReturnValue(1_000);
    const store = new MemoryNonceStore(2);
    store.consume('a', 9_000);
    store.consume('b', 9_000);
    let refusal: unknown;
    try {
      store.consume('c', 9_000);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(McpTooManyRequestsError);
    expect((refusal as McpTooManyRequestsError).code).toBe(-31429);
    expect(store.size).toBe(2);
    expect(store.consume('a', 9_000)).toBe(false);
    expect(store.consume('b', 9_000)).toBe(false);
  });

  it('still answers false for a live replay when full', () => {
    jest.spyOn(Date, 'now').mockReturnValue(1_000);
    const store = new MemoryNonceStore(1);
    store.consume('a', 9_000);
    expect(store.consume('a', 9_000)).toBe(false);
  });

  it('accepts a nonce again once its own expiry has passed', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000);
    const store = new MemoryNonceStore(10);
    store.consume('a', 1_500);
    now.mockReturnValue(1_500);
    expect(store.consume('a', 3_000)).toBe(true);
  });
});
