import type { McpApprovalStore } from '../stores/approval-store.interface.js';
import type { McpOperatorAsk, McpOperatorAskRecord } from './operator-ask.interface.js';

/** How often a parked call tells its client it still waits, and re-reads its record. */
export const PROGRESS_INTERVAL_MS = 15_000;

/**
 * How a wait for an operator ended: a decided record, still pending when the call had to
 * answer (`until`), or the deny's detail.
 */
export type McpOperatorWaitOutcome =
  | { readonly record: McpOperatorAskRecord }
  | { readonly pending: true }
  | { readonly ended: string };

export interface McpOperatorWaitHooks {
  /** Aborted when the call is cancelled or its connection closes. */
  readonly signal: AbortSignal;
  /** Why an abort ended the wait (read when it happens). */
  abortDetail(): string;
  /** Called at the start and every `PROGRESS_INTERVAL_MS` with 1, 2, 3, … */
  progress(count: number): void;
  /**
   * When the call must answer, ms since the epoch: still pending then, the wait ends
   * `pending` (the ask stays). Default, and at the latest, the ask's expiry.
   */
  readonly until?: number;
}

const TIMED_OUT: McpOperatorWaitOutcome = Object.freeze({ ended: 'approval timed out' });
const PENDING: McpOperatorWaitOutcome = Object.freeze({ pending: true as const });

/**
 * One handshake-era call waiting for an operator's decision on `ask`. The
 * store's events wake it, and it then re-reads the record, which alone
 * decides (an event is a hint, the record the truth); the progress tick
 * re-reads it too, so a missed event costs at most one interval. It ends at
 * `until` (pending) or at the ask's expiry, whichever comes first, and every
 * timer and listener goes with it. `end` lets the owner end it early (a
 * shutdown).
 */
export function waitForOperator(
  store: McpApprovalStore,
  ask: McpOperatorAsk,
  hooks: McpOperatorWaitHooks,
): { outcome: Promise<McpOperatorWaitOutcome>; end: (detail: string) => void } {
  let finish: (outcome: McpOperatorWaitOutcome) => void = () => undefined;
  const outcome = new Promise<McpOperatorWaitOutcome>((resolve) => {
    let settled = false;
    let count = 0;
    const check = (): void => {
      store.get(ask.id).then(
        (record) => {
          if (!record) finish(TIMED_OUT);
          else if (record.decision) finish({ record });
        },
        // The store is unreachable for now: keep waiting, the deadline still holds.
        () => undefined,
      );
    };
    const onAbort = (): void => finish({ ended: hooks.abortDetail() });
    const unwatch = store.watch((event) => {
      const id = event.type === 'expired' ? event.id : event.ask.id;
      if (id === ask.id && event.type !== 'pending') check();
    });
    const until = Math.min(hooks.until ?? ask.expiresAt, ask.expiresAt);
    // Pending answers at once, not after one more read: a slow store must not make the call
    // miss its client's timeout. A decision that lands meanwhile waits for the retry.
    const outcomeAtDeadline = until < ask.expiresAt ? PENDING : TIMED_OUT;
    const deadline = setTimeout(() => finish(outcomeAtDeadline), Math.max(0, until - Date.now()));
    const ticker = setInterval(() => {
      hooks.progress(++count);
      check();
    }, PROGRESS_INTERVAL_MS);
    deadline.unref();
    ticker.unref();
    finish = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearInterval(ticker);
      unwatch();
      hooks.signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    if (hooks.signal.aborted) return onAbort();
    hooks.signal.addEventListener('abort', onAbort, { once: true });
    hooks.progress(++count);
    // A decision may have landed between recording the ask and watching it.
    check();
  });
  return { outcome, end: (detail) => finish({ ended: detail }) };
}
