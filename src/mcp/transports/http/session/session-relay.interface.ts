import type { ServerResponse } from 'node:http';
import type { McpPrincipal } from '../../../authentication/principal.interface.js';
import type { RequestId } from '../../../core/protocol/jsonrpc.js';

/** A session another instance holds, as the directory names it. */
export interface McpRemoteSession {
  readonly id: string;
  readonly instance: string;
}

/**
 * Serves requests for sessions another instance holds (cluster mode): the
 * message goes to that instance, and its answers and events come back to
 * this instance's client. Without `cluster` there is none.
 */
export interface McpSessionRelay {
  /** Another instance's live-or-dead session of `principal`, or undefined. */
  find(id: string, principal?: McpPrincipal): Promise<McpRemoteSession | undefined>;
  post(
    res: ServerResponse,
    session: McpRemoteSession,
    body: unknown,
    ids: RequestId[],
    principal?: McpPrincipal,
    /** The client lists `text/event-stream` first: answer as a stream even if only responses come. */
    stream?: boolean,
  ): Promise<void>;
  get(res: ServerResponse, session: McpRemoteSession, lastEventId?: string): Promise<void>;
  delete(res: ServerResponse, session: McpRemoteSession): Promise<void>;
}

/** DI token of the session relay (null without `cluster`). */
export const MCP_SESSION_RELAY = 'McpWarden:sessionRelay';
