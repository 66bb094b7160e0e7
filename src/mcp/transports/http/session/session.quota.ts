import { JsonRpcErrorCode } from '../../../core/protocol/error-codes.constants.js';
import { McpHttpError } from '../../../core/http/mcp-http.error.js';

/**
 * Live sessions per caller (`limits.maxSessionsPerPrincipal`), so that one
 * caller cannot fill the session table for everyone.
 */
export class SessionQuota {
  private readonly held = new Map<string, number>();

  constructor(private readonly perCaller: number) {}

  /** Counts one more session for `key`, or throws the 429 refusal. */
  take(key: string): void {
    const count = this.held.get(key) ?? 0;
    if (count >= this.perCaller) {
      throw new McpHttpError(
        429,
        'Too Many Requests: this caller holds too many sessions',
        JsonRpcErrorCode.TooManyRequests,
      );
    }
    this.held.set(key, count + 1);
  }

  release(key: string): void {
    const count = (this.held.get(key) ?? 1) - 1;
    if (count > 0) this.held.set(key, count);
    else this.held.delete(key);
  }
}
