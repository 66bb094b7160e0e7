/**
 * A task's status (io.modelcontextprotocol/tasks): `completed`, `failed` and `cancelled` are
 * final.
 * @publicApi
 */
export type McpTaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The statuses a task never leaves. */
export const FINAL_STATUSES: ReadonlySet<McpTaskStatus> = new Set([
  'completed',
  'failed',
  'cancelled',
]);

/**
 * One question a running task waits on, in the multi round-trip shape.
 * @publicApi
 */
export interface McpTaskInputRequest {
  readonly method: string;
  readonly params: object;
}

/**
 * A task as a store keeps it: plain JSON, so any store can hold it. `owner` binds it to the
 * principal that created it (issuer and subject): nobody else may read, answer or cancel it.
 * @publicApi
 */
export interface McpTask {
  readonly taskId: string;
  /** The creator's principal key (issuer and subject; empty for an anonymous caller). */
  readonly owner: string;
  /** The creator's quota key: the share of `limits.maxTasks` it counts against. */
  readonly quotaKey: string;
  /** The tool the task runs. */
  readonly tool: string;
  readonly status: McpTaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** When the store may forget it: creation plus `ttlMs`, in epoch milliseconds. */
  readonly expiresAt: number;
  /** The tool's result, once `completed`. */
  readonly result?: object;
  /** The JSON-RPC error, once `failed`. */
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  /** The questions it waits on, while `input_required`. */
  readonly inputRequests?: Readonly<Record<string, McpTaskInputRequest>>;
  /** The instance that runs it (cluster mode), so another can tell when it died. */
  readonly runner?: string;
}

/**
 * What a status change may set. `inputRequests` and `statusMessage` are replaced as given
 * (absent clears them).
 * @publicApi
 */
export type McpTaskChange = Pick<
  McpTask,
  'status' | 'statusMessage' | 'result' | 'error' | 'inputRequests'
>;
