import { Inject, Injectable, Optional } from '@nestjs/common';
import { MCP_OPTIONS } from '../../../core/options/options.constants.js';
import type { McpAuthenticationSettings } from '../../../authentication/authentication-settings.interface.js';
import { JsonRpcErrorCode } from '../../../core/protocol/error-codes.constants.js';
import { McpHttpError } from '../../../core/http/mcp-http.error.js';
import { MCP_SHARED_CALL_RATE, type McpSharedCallRate } from './shared-call-rate.interface.js';

interface Bucket {
  tokens: number;
  refilledAt: number;
}

/* Buckets kept at most; past it the ones that are full again (idle callers) are dropped. */
export const MAX_BUCKETS = 10_000;
/*
 * Room an eviction leaves at least: a tenth of the map. Each eviction scans every bucket, so
 * when every caller is busy, a stream of new callers (many client addresses) pays one scan per
 * tenth of the map rather than one per caller.
 */
export const EVICTION_ROOM = MAX_BUCKETS / 10;

/**
 * `limits.callsPerSecondPerPrincipal`: a token bucket per caller (principal,
 * or client address when anonymous) holding two seconds' worth of requests
 * (at least one). Over it, the request is refused with 429, `Retry-After`, and
 * JSON-RPC error -31429 whose data says when to retry; a batch larger than the
 * bucket, which no wait would let through, with 400 and -32600. In cluster mode the bucket is one
 * per caller over every instance (in Redis).
 */
@Injectable()
export class McpCallRateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly rate: number;
  private readonly capacity: number;

  constructor(
    @Inject(MCP_OPTIONS) options: McpAuthenticationSettings,
    @Optional()
    @Inject(MCP_SHARED_CALL_RATE)
    private readonly shared: McpSharedCallRate | null = null,
  ) {
    this.rate = options.limits.callsPerSecondPerPrincipal;
    // At least one whole request: below 0.5 a second, two seconds' worth is less than one, and
    // a bucket that never holds a request would refuse every one, for good.
    this.capacity = Math.max(1, this.rate * 2);
  }

  /**
   * Takes `count` requests from `key`'s bucket, or throws the 429 refusal
   * (rejects with it, in cluster mode).
   */
  take(key: string, count: number, now = Date.now()): void | Promise<void> {
    if (count === 0) return;
    // More at once than the bucket ever holds (a batch): no wait would let it through.
    if (count > this.capacity) throw tooMany(count, Math.floor(this.capacity));
    if (this.shared) return this.takeShared(key, count);
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= MAX_BUCKETS) this.evictFull(now);
      bucket = { tokens: this.capacity, refilledAt: now };
      this.buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(
      this.capacity,
      // A clock that steps back refills nothing, rather than draining the bucket.
      bucket.tokens + (Math.max(0, now - bucket.refilledAt) * this.rate) / 1000,
    );
    bucket.refilledAt = now;
    if (bucket.tokens >= count) {
      bucket.tokens -= count;
      return;
    }
    throw refusal(Math.ceil(((count - bucket.tokens) * 1000) / this.rate));
  }

  private async takeShared(key: string, count: number): Promise<void> {
    let wait: number;
    try {
      wait = await this.shared!.take(key, count, this.rate, this.capacity);
    } catch {
      // Fail closed: without the shared bucket no instance can tell the caller's rate.
      throw new McpHttpError(503, 'Service Unavailable: the call rate cannot be checked');
    }
    if (wait > 0) throw refusal(wait);
  }

  private evictFull(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.refilledAt) * this.rate) / 1000 >= this.capacity) {
        this.buckets.delete(key);
      }
    }
    // Every caller is busy: drop the oldest, each of which costs its caller at most a fresh
    // full bucket, until a tenth of the map is free.
    let over = this.buckets.size - (MAX_BUCKETS - EVICTION_ROOM);
    for (const key of this.buckets.keys()) {
      if (over-- <= 0) break;
      this.buckets.delete(key);
    }
  }
}

/** A batch larger than the caller's bucket: refused for what it is, with no time to retry at. */
function tooMany(count: number, most: number): McpHttpError {
  return new McpHttpError(
    400,
    `Bad Request: a batch of ${count} requests is more than this caller's calls-per-second ` +
      `budget lets through at once (${most}); send smaller batches`,
    JsonRpcErrorCode.InvalidRequest,
    {},
    { mostAtOnce: most },
  );
}

/** The 429 refusal: `Retry-After`, and the wait in the JSON-RPC error's data. */
function refusal(retryAfterMs: number): McpHttpError {
  return new McpHttpError(
    429,
    'Too Many Requests: this caller is over its calls-per-second budget',
    JsonRpcErrorCode.TooManyRequests,
    { 'Retry-After': String(Math.ceil(retryAfterMs / 1000)) },
    { retryAfterMs },
  );
}
