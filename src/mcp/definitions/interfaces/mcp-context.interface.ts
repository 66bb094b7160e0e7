import type { McpCredentials } from '../../authentication/token-exchange/credentials.interface.js';
import type { IncomingMessage } from 'node:http';
import type { McpPrincipal } from '../../authentication/principal.interface.js';
import type { McpTransportKind } from '../../core/protocol/transport-kind.js';
import type { McpElicitationUrl, McpUrlElicitResult } from './url-elicitation.interface.js';
import type { RequestId } from '../../core/protocol/jsonrpc.js';
import type { McpEra } from '../../core/protocol/era.constants.js';
import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  ElicitResult,
  ListRootsResult,
  LoggingLevel,
} from '../../core/protocol/mcp-types.js';

/**
 * What a tool, resource or prompt handler receives besides its arguments.
 * Every outbound message it triggers goes to the caller's connection only and
 * is tagged with the caller's request id.
 * @publicApi
 */
export interface McpToolContext {
  /** The calling connection. */
  readonly connId: string;
  /** The transport this request really arrived on. */
  readonly transport: McpTransportKind;
  /** The caller, when the transport authenticated one (never taken from the request). */
  readonly principal?: McpPrincipal;
  /** The HTTP request that carried this call (HTTP transports only). */
  readonly httpRequest?: IncomingMessage;
  /** The id of the request being served. */
  readonly requestId: RequestId;
  /** The protocol era of the request: `'legacy'` (handshake) or `'modern'` (2026-07-28). */
  readonly era: McpEra;
  /**
   * What the client declared: at `initialize` in the handshake era, in this
   * request's own `_meta` in the modern era. A handler asks only for what is
   * declared here (spec: never rely on an undeclared client capability).
   */
  readonly clientCapabilities?: ClientCapabilities;
  /** Aborted when the client cancels the request or its connection closes. */
  readonly signal: AbortSignal;
  /**
   * The caller's credentials for downstream APIs: `exchange({ audience, scope? })` trades the
   * caller's verified bearer token for one whose audience is that API (RFC 8693,
   * docs/token-exchange.md).
   */
  readonly credentials: McpCredentials;
  /**
   * Reports progress when the request carried a `progressToken`; a no-op
   * otherwise, after the response, or when `progress` does not increase.
   */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends `notifications/message` to the caller, if `level` passes its log level. */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  /**
   * Asks the user for input (`elicitation/create`, form mode) on the caller's
   * connection. `requestedSchema` must be the spec's flat primitive subset.
   * An `accept` is checked against it: content that does not match rejects
   * with a tool error, so what resolves is what the schema asked for.
   * Rejects if the client did not declare `elicitation`, on timeout, on
   * cancellation, or when the connection closes. In the modern era the
   * question rides an input-required result and the handler runs again with
   * the answer when the client retries (see `McpInputOptions`).
   */
  elicit(
    message: string,
    requestedSchema: Record<string, unknown>,
    options?: McpInputOptions,
  ): Promise<ElicitResult>;
  /**
   * Sends the user to `url` (`elicitation/create`, URL mode), for input that
   * must not pass through the client, such as credentials. Only for clients
   * that declared URL-mode elicitation. `url` may be a function of the
   * elicitation's id, so the page can tell which one it serves; the result
   * carries the id. `accept` means the user agreed to go: once they are done,
   * `McpUrlElicitations.complete(elicitationId)` tells this client.
   */
  elicitUrl(
    message: string,
    url: McpElicitationUrl,
    options?: McpInputOptions,
  ): Promise<McpUrlElicitResult>;
  /**
   * Asks the caller's client to sample its model (`sampling/createMessage`).
   * `tools` / `toolChoice` need the client's `sampling.tools`, and an
   * `includeContext` other than `'none'` its `sampling.context`: otherwise
   * it rejects with a tool error and nothing is sent.
   */
  sample(params: CreateMessageParams, options?: McpInputOptions): Promise<CreateMessageResult>;
  /** Asks the caller's client for its roots (`roots/list`). */
  listRoots(options?: McpInputOptions): Promise<ListRootsResult>;
}

/**
 * How a question to the client is named in the modern era, where it travels
 * in an input-required result (`inputRequests[key]`) and its answer comes
 * back in the retry (`inputResponses[key]`). A handler asking the same
 * question must use the same key on every run; without one, questions are
 * keyed by the order they are asked (`elicit-0`, `sample-1`, …). Ignored in
 * the handshake era.
 * @publicApi
 */
export interface McpInputOptions {
  key?: string;
}

/**
 * The context of resource and prompt handlers (the same shape as a tool's).
 * @publicApi
 */
export type McpRequestContext = McpToolContext;

/**
 * Completes one argument: returns candidate values for `value` (the text typed
 * so far). At most 100 are sent; `total` and `hasMore` tell the client the rest.
 * @publicApi
 */
export type McpCompleter = (
  value: string,
  context: { arguments: Record<string, string> },
) => string[] | Promise<string[]>;

/**
 * A completer in decorator options: a function, or the name of a method on the
 * same provider (decorator arguments are evaluated before any instance exists,
 * so a method name is how a completer reaches injected services).
 * @publicApi
 */
export type McpCompleterRef = McpCompleter | string;
