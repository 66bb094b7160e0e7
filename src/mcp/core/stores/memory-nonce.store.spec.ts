import { jest } from '@jest/globals';
import { McpTooManyRequestsError } from '../errors/protocol.errors.js';
import { MemoryNonceStore } from './memory-nonce.store.js';

const ME = 'p:https://id.example\u0000me';
const MALLORY = 'p:https://id.example\u0000mallory';
const ALICE = 'p:https://id.example\u0000alice';

/** The refusal `consume` threw, or undefined when it did not throw. */
function refusalOf(consume: () => unknown): McpTooManyRequestsError | undefined {
  try {
    consume();
  } catch (error) {
    return error as McpTooManyRequestsError;
  }
  return undefined;
}

describe('MemoryNonceStore', () => {
  afterEach(() => jest.restoreAllMocks());

  it('consumes a nonce once: true the first time, false every later time', () => {
    const store = new MemoryNonceStore(10);
    const until = Date.now() + 60_000;
    expect(store.consume('n1', until, ME)).toBe(true);
    expect(store.consume('n1', until, ME)).toBe(false);
    expect(store.consume('n1', until, ME)).toBe(false);
    expect(store.consume('n2', until, ME)).toBe(true);
    expect(store.size).toBe(2);
  });

  it('catches a replay whoever presents it: the nonce is not kept per caller', () => {
    const store = new MemoryNonceStore({ capacity: 10, perCaller: 5 });
    const until = Date.now() + 60_000;
    expect(store.consume('n1', until, ME)).toBe(true);
    expect(store.consume('n1', until, ALICE)).toBe(false);
  });

  it('sweeps expired nonces when full and then accepts a new one', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000);
    const store = new MemoryNonceStore(2);
    expect(store.consume('old-1', 1_500, ME)).toBe(true);
    expect(store.consume('old-2', 1_500, ME)).toBe(true);
    now.mockReturnValue(2_000);
    expect(store.consume('new', 9_000, ME)).toBe(true);
    expect(store.size).toBe(1);
  });

  it('keeps live nonces when sweeping: only the expired ones go', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000);
    const store = new MemoryNonceStore(2);
    store.consume('expiring', 1_500, ME);
    store.consume('live', 9_000, ME);
    now.mockReturnValue(2_000);
    expect(store.consume('new', 9_000, ME)).toBe(true);
    expect(store.size).toBe(2);
    expect(store.consume('live', 9_000, ME)).toBe(false);
  });

  it('refuses with -31429 when full of live nonces rather than forgetting one', () => {
    jest.spyOn(Date, 'now').mockReturnValue(1_000);
    const store = new MemoryNonceStore(2);
    store.consume('a', 9_000, ME);
    store.consume('b', 9_000, ME);
    const refusal = refusalOf(() => store.consume('c', 9_000, ME));
    expect(refusal).toBeInstanceOf(McpTooManyRequestsError);
    expect(refusal!.code).toBe(-31429);
    expect(store.size).toBe(2);
    expect(store.consume('a', 9_000, ME)).toBe(false);
    expect(store.consume('b', 9_000, ME)).toBe(false);
  });

  it('still answers false for a live replay when full', () => {
    jest.spyOn(Date, 'now').mockReturnValue(1_000);
    const store = new MemoryNonceStore(1);
    store.consume('a', 9_000, ME);
    expect(store.consume('a', 9_000, ME)).toBe(false);
  });

  it('accepts a nonce again once its own expiry has passed', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000);
    const store = new MemoryNonceStore(10);
    store.consume('a', 1_500, ME);
    now.mockReturnValue(1_500);
    expect(store.consume('a', 3_000, ME)).toBe(true);
  });

  describe('store share per caller', () => {
    it('refuses a caller past its share (-31429, saying so), and no one else', () => {
      jest.spyOn(Date, 'now').mockReturnValue(1_000);
      const store = new MemoryNonceStore({ capacity: 10, perCaller: 3 });
      for (const n of [1, 2, 3]) expect(store.consume(`m${n}`, 9_000, MALLORY)).toBe(true);
      const refusal = refusalOf(() => store.consume('m4', 9_000, MALLORY));
      expect(refusal).toBeInstanceOf(McpTooManyRequestsError);
      expect(refusal!.code).toBe(-31429);
      expect(refusal!.message).toContain('by this caller');
      expect(store.consume('a1', 9_000, ALICE)).toBe(true);
      // Her share holds replays as before.
      expect(store.consume('m1', 9_000, MALLORY)).toBe(false);
    });

    it('frees a share as its nonces expire', () => {
      const now = jest.spyOn(Date, 'now').mockReturnValue(1_000);
      const store = new MemoryNonceStore({ capacity: 10, perCaller: 2 });
      store.consume('m1', 1_500, MALLORY);
      store.consume('m2', 9_000, MALLORY);
      expect(refusalOf(() => store.consume('m3', 9_000, MALLORY))).toBeDefined();
      now.mockReturnValue(2_000);
      expect(store.consume('m3', 9_000, MALLORY)).toBe(true);
      expect(store.consume('m1', 9_000, ALICE)).toBe(true);
    });

    it('still bounds every caller together, with a refusal that says so', () => {
      jest.spyOn(Date, 'now').mockReturnValue(1_000);
      const store = new MemoryNonceStore({ capacity: 3, perCaller: 2 });
      store.consume('m1', 9_000, MALLORY);
      store.consume('m2', 9_000, MALLORY);
      store.consume('a1', 9_000, ALICE);
      const refusal = refusalOf(() => store.consume('a2', 9_000, ALICE));
      expect(refusal!.code).toBe(-31429);
      expect(refusal!.message).toContain('on this server');
    });

    it("keeps the server's own entries apart: callers filling theirs do not refuse the webhook's", () => {
      jest.spyOn(Date, 'now').mockReturnValue(1_000);
      const store = new MemoryNonceStore({ capacity: 2, perCaller: 2 });
      store.consume('m1', 9_000, MALLORY);
      store.consume('m2', 9_000, MALLORY);
      expect(refusalOf(() => store.consume('a1', 9_000, ALICE))).toBeDefined();
      expect(store.consume('webhook:ask-1', 9_000)).toBe(true);
      expect(store.consume('webhook-link:jti-1', 9_000)).toBe(true);
      expect(store.consume('webhook-link:jti-1', 9_000)).toBe(false);
      // And they are bounded in turn, refused with their own words.
      const refusal = refusalOf(() => store.consume('webhook:ask-2', 9_000));
      expect(refusal!.code).toBe(-31429);
      expect(refusal!.message).toContain('webhook');
    });
  });

  describe('a store full of live nonces', () => {
    /* How many Maps `run` walks: what a sweep costs, counted rather than timed. */
    function walksDuring(run: () => void): number {
      const maps = Map.prototype as unknown as { [Symbol.iterator]: () => Iterator<unknown> };
      const walk = jest.spyOn(maps, Symbol.iterator);
      try {
        run();
        return walk.mock.calls.length;
      } finally {
        walk.mockRestore();
      }
    }

    it('refuses without walking every nonce again until the first of them expires', () => {
      const now = jest.spyOn(Date, 'now').mockReturnValue(1_000);
      const store = new MemoryNonceStore({ capacity: 300, perCaller: 3 });
      // A hundred callers (addresses, say) fill the store; the first nonce expires at 5,000.
      for (let caller = 0; caller < 100; caller++) {
        for (let n = 0; n < 3; n++)
          store.consume(`c${caller}-${n}`, 5_000 + caller, `caller-${caller}`);
      }
      // The first refusal sweeps, finding nothing expired; the next ones walk nothing.
      expect(refusalOf(() => store.consume('x0', 9_000, ALICE))!.message).toContain(
        'on this server',
      );
      const walks = walksDuring(() => {
        for (let i = 1; i <= 50; i++)
          expect(refusalOf(() => store.consume(`x${i}`, 9_000, ALICE))).toBeDefined();
      });
      expect(walks).toBe(0);
      // Replays are still caught, and once the first nonces expire a sweep frees their room.
      expect(store.consume('c0-0', 9_000, ALICE)).toBe(false);
      now.mockReturnValue(5_000);
      expect(store.consume('x51', 9_000, ALICE)).toBe(true);
      expect(store.consume('c0-1', 9_000, ALICE)).toBe(true);
      expect(store.consume('c1-0', 9_000, ALICE)).toBe(false);
    });

    it("does the same for the server's own entries", () => {
      const now = jest.spyOn(Date, 'now').mockReturnValue(1_000);
      const store = new MemoryNonceStore({ capacity: 100, perCaller: 1 });
      for (let n = 0; n < 100; n++) store.consume(`webhook:ask-${n}`, 5_000 + n);
      expect(refusalOf(() => store.consume('webhook:ask-x', 9_000))).toBeDefined();
      const walks = walksDuring(() => {
        for (let i = 0; i < 20; i++)
          expect(refusalOf(() => store.consume(`webhook:y${i}`, 9_000))).toBeDefined();
      });
      expect(walks).toBe(0);
      now.mockReturnValue(5_000);
      expect(store.consume('webhook:ask-x', 9_000)).toBe(true);
      expect(store.consume('webhook:ask-1', 9_000)).toBe(false);
    });
  });
});
