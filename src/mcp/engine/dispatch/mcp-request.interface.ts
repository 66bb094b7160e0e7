import type { IncomingMessage } from 'node:http';
import type { McpPrincipal } from '../../authentication/principal.interface.js';
import type { McpTransportKind } from '../../core/protocol/transport-kind.js';
import type { McpSeamRequest } from '../../authorization/seam-request.interface.js';
import type { ToolSeamVerdict } from '../../authorization/tool-seam-verdict.interface.js';
import type { RequestId } from '../../core/protocol/jsonrpc.js';
import type { ClientCapabilities, LoggingLevel } from '../../core/protocol/mcp-types.js';
import type { McpConnection } from '../connection/mcp-connection.js';
import type { McpEra } from '../../core/protocol/era.constants.js';
import type { McpInputRound } from '../../core/multi-round-trip/input-round.js';

/**
 * One client request as the server's method handlers (and the seam guards,
 * through `ExecutionContext.getArgByIndex(0)`) see it. `params` has already
 * passed the method's schema from the official MCP package.
 */
export interface McpRequest<P = Record<string, unknown>> extends McpSeamRequest<P> {
  readonly id: RequestId;
  readonly method: string;
  readonly params: P;
  readonly connection: McpConnection;
  /** The protocol era this request was sent in (decided per message). */
  readonly era: McpEra;
  /**
   * A modern `tools/call`, `prompts/get` or `resources/read`: what the client
   * answered in earlier rounds and what this round asks (spec: MRTR).
   */
  readonly input?: McpInputRound;
  /**
   * What the client declared for this request: at `initialize` in the
   * handshake era, in the request's own `_meta` in the modern era. Read it
   * here, never from the connection, so a handler serves both eras.
   */
  readonly clientCapabilities?: ClientCapabilities;
  /**
   * The least severe log level the client wants for this request; undefined
   * means no log notifications at all (a modern request that named none).
   */
  readonly logLevel?: LoggingLevel;
  /** The transport this request really arrived on. */
  readonly transport: McpTransportKind;
  /** The caller, when the transport authenticated one. */
  readonly principal?: McpPrincipal;
  /** The HTTP request that carried this request (HTTP transports only). */
  readonly httpRequest?: IncomingMessage;
  /** Set by the tool seam guard on `tools/call`; read by the handler that owns the call. */
  toolSeam?: ToolSeamVerdict;
  /** Aborted by `notifications/cancelled` or when the connection closes. */
  readonly signal: AbortSignal;
  /** Whether the request was cancelled (reading it creates no signal). */
  readonly cancelled: boolean;
  /**
   * Sends a request to this request's client, related to this request and
   * cancelled with it; resolves with the client's result. In the modern era
   * it resolves with the client's answer from an earlier round, or asks in
   * this round's input-required result and rejects.
   */
  requestClient(method: string, params: object, key?: string): Promise<unknown>;
  /** How long the tool may run, when not `limits.toolTimeoutMs` (a task runs until its TTL). */
  readonly runTimeoutMs?: number;
  /**
   * Set when nobody waits on this request's response: it runs as a task, polled by its
   * caller (docs/tasks.md). An operator approval then waits as long as the ask lives.
   */
  readonly detached?: boolean;
  /** Aborts `signal` (the work must stop) while the request still gets a response. */
  expire(reason: string): void;
}
