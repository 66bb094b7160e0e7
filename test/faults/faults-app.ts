import { aborted } from 'node:util';
import { Injectable } from '@nestjs/common';
import { filter, firstValueFrom, type Observable } from 'rxjs';
import {
  Authorizers,
  McpServer,
  McpTool,
  type Authorizer,
  type McpAuditEvent,
  type McpModuleOptions,
  type McpToolContext,
} from '../../src/index.js';
import { McpHttpSessions } from '../../src/testing/index.js';
import { deferred } from '../support/deferred.js';
import type { HttpTestApp } from '../support/http-app.js';
import { INTERNAL_SECRET, recordUnhandledRejections } from '../support/reliability-support.js';

/*
 * The fixture app of the fault suites: clients that vanish or read too slowly,
 * tools and authorizers that hang, throw or reject late, floods of sessions and
 * requests. Each suite checks that the fault stays contained: the affected call
 * or stream ends in a bounded, documented way, nothing leaks (sessions,
 * connections, pending server→client requests), and every other client goes on
 * being served.
 */

export type Msg = Record<string, any>;

/** Tool runs, so a test can tell whether a tool body executed. */
export const runs: string[] = [];

/**
 * What the tools wait on or report through. An object, so a spec can renew a
 * signal through the import (`signals.gate = deferred()`).
 */
export const signals = {
  /** What `wait` waits on. */
  gate: deferred(),
  /** Set by `hang` when its signal aborts. */
  hangAborted: deferred<string>(),
  /** Resolved once `reject_late` has rejected (after its call timed out). */
  lateRejected: deferred(),
};

@Injectable()
export class FaultTools {
  @McpTool({ description: 'Needs approval', input: { type: 'object' } })
  guarded() {
    runs.push('guarded');
    return 'guarded ran';
  }

  @McpTool({ description: 'Never finishes; records its abort', input: { type: 'object' } })
  hang(_args: object, ctx: McpToolContext) {
    return aborted(ctx.signal, ctx.signal).then(() => {
      signals.hangAborted.resolve(String((ctx.signal.reason as Error)?.message));
      throw ctx.signal.reason;
    });
  }

  @McpTool({ description: 'Rejects only after its call timed out', input: { type: 'object' } })
  reject_late(_args: object, ctx: McpToolContext) {
    return new Promise((_, reject) => {
      void aborted(ctx.signal, ctx.signal).then(() =>
        setImmediate(() => {
          reject(new Error(`${INTERNAL_SECRET} late`));
          signals.lateRejected.resolve();
        }),
      );
    });
  }

  @McpTool({ description: 'Resolves only after its call timed out', input: { type: 'object' } })
  resolve_late(_args: object, ctx: McpToolContext) {
    return new Promise((done) => {
      void aborted(ctx.signal, ctx.signal).then(() => setImmediate(() => done('too late')));
    });
  }

  @McpTool({ description: 'Throws internal text at once', input: { type: 'object' } })
  explode(): never {
    throw new Error(`${INTERNAL_SECRET} at /srv/node_modules/db/index.js:10:3`);
  }

  @McpTool({ description: 'Waits for the test to open the gate', input: { type: 'object' } })
  async wait() {
    await signals.gate.promise;
    return 'waited';
  }

  @McpTool({ description: 'Answers at once', input: { type: 'object' } })
  quick() {
    runs.push('quick');
    return 'quick';
  }
}

export const toolPolicy: Authorizer = (name) =>
  name === 'guarded' ? { kind: 'ask', prompt: 'Run guarded?' } : { kind: 'allow' };

export const HTTP_OPTIONS: Partial<McpModuleOptions> = {
  authorizer: toolPolicy,
  authorizerSource: 'configured',
  readAuthorizer: Authorizers.allowAll(),
  elicitationTimeoutMs: 10_000,
};

export const callMsg = (id: number | string, name: string, args: object = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** A response's JSON body. */
export async function bodyOf(response: Response): Promise<Msg> {
  return (await response.json()) as Msg;
}

/** The counts that must return to zero once every client is gone. */
export function leftovers(app: HttpTestApp['app']) {
  return {
    sessions: app.get(McpHttpSessions).size,
    bufferedEvents: app.get(McpHttpSessions).bufferedEvents(),
    connections: app.get(McpServer).stats().connections,
    pendingServerRequests: app.get(McpServer).stats().pendingClientRequests,
  };
}
export const NOTHING_LEFT = {
  sessions: 0,
  bufferedEvents: 0,
  connections: 0,
  pendingServerRequests: 0,
};

/** The next audit event matching `test`. */
export function nextAudit(
  audit$: Observable<McpAuditEvent>,
  test: (event: McpAuditEvent) => boolean,
): Promise<McpAuditEvent> {
  return firstValueFrom(audit$.pipe(filter(test)));
}

/**
 * Called at the top of each fault spec: clears `runs` before each test and
 * fails a test that left an unhandled rejection. Returns what the current test's
 * recorder has seen so far.
 */
export function useFaultChecks(): { readonly seen: unknown[] } {
  let rejections: ReturnType<typeof recordUnhandledRejections> | undefined;
  beforeEach(() => {
    runs.length = 0;
    rejections = recordUnhandledRejections();
  });
  afterEach(() => {
    rejections?.stop();
    expect(rejections?.seen).toEqual([]);
  });
  return {
    get seen() {
      return rejections?.seen ?? [];
    },
  };
}
