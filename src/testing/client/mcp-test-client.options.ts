import type { McpPrincipal } from '../../mcp/authentication/principal.interface.js';
import type { McpTransportKind } from '../../mcp/authorization/authorizer.interface.js';
import type { MaybePromise } from '../../mcp/core/common/maybe-promise.js';
import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  ElicitResult,
  ListRootsResult,
} from '../../mcp/core/protocol/mcp-types.js';
import type { ElicitRequestParams, Implementation } from './mcp-test-client.types.js';

/**
 * How `McpTestClient.connect()` sets up its connection.
 *
 * @example
 * await McpTestClient.connect(app, {
 *   principal: { subject: 'alice', scopes: ['notes:write'] },
 *   transport: 'http',
 * });
 */
export interface McpTestClientOptions {
  /**
   * Act as this caller: it reaches the authorizer context, the tool context
   * and the audit events as if a transport had authenticated it. Only an
   * in-process caller (the application itself) can choose it; a client over
   * the network never can. Default: anonymous.
   */
  principal?: McpPrincipal;
  /** The transport the messages claim to arrive on. Default: the one declared in `forRoot`. */
  transport?: McpTransportKind;
  /**
   * Declared at `initialize`. Default: `{ elicitation: { form: {} } }`, so a
   * tool whose authorizer answers `ask` can be approved (or declined). Pass
   * `{}` to be a client that cannot be asked; add `sampling` or `roots` when
   * you answer those requests with `onRequest()`.
   */
  capabilities?: ClientCapabilities;
  /**
   * Sent at `initialize`. Default: `LATEST_PROTOCOL_VERSION`. The client
   * speaks the handshake era; an unknown version is answered with the newest.
   */
  protocolVersion?: string;
  /** Sent at `initialize`. Default: `{ name: 'mcp-warden-test-client', version: '1.0.0' }`. */
  clientInfo?: Implementation;
  /** The connection id the server sees. Default: a fresh unique one per client. */
  connId?: string;
  /**
   * The server to talk to, by `name`, in an app with several
   * (docs/several-servers.md). Default: the app's only server.
   */
  server?: string;
}

/** One approval the server asked for: an `ask` decision on `tools/call`. */
export interface McpApprovalRequest {
  /** The tool waiting to run. */
  readonly tool: string;
  /** The arguments it was called with. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The authorizer's prompt. */
  readonly message: string;
}

/**
 * An answer to an approval: the short words, or the full `ElicitResult` the
 * wire carries (`'approve'` is `{ action: 'accept', content: { approve: true } }`).
 */
export type McpApprovalAnswer = 'approve' | 'decline' | 'cancel' | ElicitResult;

/** Decides approvals; see `McpTestClient.onApproval()`. */
export type McpApprovalHandler = (request: McpApprovalRequest) => MaybePromise<McpApprovalAnswer>;

/** The server→client requests a test can answer with `onRequest()`, with their shapes. */
export interface McpClientRequests {
  /** A tool's own `ctx.elicit()` / `ctx.elicitUrl()` (approvals go to `onApproval()`). */
  'elicitation/create': { params: ElicitRequestParams; result: ElicitResult };
  /** A tool's `ctx.sample()`. */
  'sampling/createMessage': { params: CreateMessageParams; result: CreateMessageResult };
  /** A tool's `ctx.listRoots()`. */
  'roots/list': { params: Record<string, unknown>; result: ListRootsResult };
}

/** Answers one kind of server→client request; throw an `McpWardenError` to answer an error. */
export type McpClientRequestHandler<M extends keyof McpClientRequests> = (
  params: McpClientRequests[M]['params'],
) => MaybePromise<McpClientRequests[M]['result']>;
