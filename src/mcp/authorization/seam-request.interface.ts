import type { McpPrincipal } from '../authentication/principal.interface.js';
import type { RequestId } from '../core/protocol/jsonrpc.js';
import type { McpTransportKind } from '../core/protocol/transport-kind.js';
import type { McpEra } from '../core/protocol/era.constants.js';
import type { ToolSeamVerdict } from './tool-seam-verdict.interface.js';

/**
 * The part of a request the seams and the audit read. The engine's `McpRequest` extends it;
 * it is declared here so that authorization never imports the engine above it.
 */
export interface McpSeamRequest<P = Record<string, unknown>> {
  readonly id: RequestId;
  readonly method: string;
  readonly params: P;
  /** The connection the request came on; the engine's is an `McpConnection`. */
  readonly connection: { readonly id: string };
  /** The transport this request really arrived on. */
  readonly transport: McpTransportKind;
  /** The caller, when the transport authenticated one. */
  readonly principal?: McpPrincipal;
  /** The request's protocol era. */
  readonly era?: McpEra;
  /** Set by the tool seam guard on `tools/call`; read by the handler that owns the call. */
  toolSeam?: ToolSeamVerdict;
  /** The `id` of the tool seam's audit event, when one was recorded: what later steps link to. */
  auditId?: string;
  /**
   * The call's arguments in RFC 8785 canonical JSON, made once by the tool seam where the audit
   * records (null: they have no such form), for the decision's digest.
   */
  canonicalArguments?: string | null;
  /** Set once the call's outcome is recorded: a call has one (a task's may be written early). */
  outcomeRecorded?: boolean;
}
