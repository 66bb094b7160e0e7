/**
 * The call-rate buckets every instance shares (cluster mode); without it
 * each process keeps its own.
 */
export interface McpSharedCallRate {
  /**
   * Takes `count` requests from `key`'s bucket (refilled at `ratePerSecond`,
   * holding `capacity`). Resolves 0 when granted, else the ms to wait.
   */
  take(key: string, count: number, ratePerSecond: number, capacity: number): Promise<number>;
}

/** DI token of the shared call rate (null without `cluster`). */
export const MCP_SHARED_CALL_RATE = 'McpWarden:sharedCallRate';
