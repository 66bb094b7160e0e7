import fc from 'fast-check';

/** A request of a duplicate-id case: a held call on a shared id, or something with its own id. */
export type DupItem =
  | { kind: 'hold'; id: string | number }
  | { kind: 'ping'; id: string }
  | { kind: 'initialize'; id: string }
  | { kind: 'notification' };

/** Ids the held calls share (1 and "1" are distinct ids). */
export const SHARED_IDS = [1, 2, '1', 'a', 0] as const;

export const dupItem: fc.Arbitrary<DupItem> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(...SHARED_IDS).map((id) => ({ kind: 'hold' as const, id })),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'ping' as const, id: '' }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'initialize' as const, id: '' }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'notification' as const }) },
);

/** One send: a single message or a 2025-03-26 batch of up to 6. */
export interface DupSend {
  batch: boolean;
  items: DupItem[];
}

/**
 * The sends of one case: single messages (never an initialize, which would
 * start the connection afresh) and batches, which may carry an initialize
 * (the server must refuse it there) unless `initializeInBatch` is false.
 */
export function dupSends(initializeInBatch = true): fc.Arbitrary<DupSend[]> {
  const notInitialize = dupItem.filter((item) => item.kind !== 'initialize');
  return fc.array(
    fc.oneof(
      notInitialize.map((item) => ({ batch: false, items: [item] })),
      fc
        .array(initializeInBatch ? dupItem : notInitialize, { minLength: 1, maxLength: 6 })
        .map((items) => ({ batch: true, items })),
    ),
    { minLength: 1, maxLength: 8 },
  );
}

/** Gives the pings and initializes ids of their own (unique over the run). */
let uniqueId = 0;
export function withOwnIds(sends: DupSend[]): DupSend[] {
  return sends.map(({ batch, items }) => ({
    batch,
    items: items.map((item) =>
      item.kind === 'ping' || item.kind === 'initialize'
        ? { ...item, id: `own-${++uniqueId}` }
        : item,
    ),
  }));
}

/** The wire form of a send. */
export function wireOf(send: DupSend): unknown {
  return send.batch ? send.items.map(dupMessage) : dupMessage(send.items[0]);
}

export function dupMessage(item: DupItem): Record<string, any> {
  switch (item.kind) {
    case 'hold':
      return {
        jsonrpc: '2.0',
        id: item.id,
        method: 'tools/call',
        params: { name: 'hold', arguments: {} },
      };
    case 'ping':
      return { jsonrpc: '2.0', id: item.id, method: 'ping' };
    case 'initialize':
      return {
        jsonrpc: '2.0',
        id: item.id,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'x', version: '1' },
        },
      };
    case 'notification':
      return { jsonrpc: '2.0', method: 'notifications/initialized' };
  }
}
