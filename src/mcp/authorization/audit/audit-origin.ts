import { randomUUID } from 'node:crypto';
import type { McpPrincipal } from '../../authentication/principal.interface.js';
import type { McpSeamRequest } from '../seam-request.interface.js';
import type { McpAuditEvent } from './mcp-audit-event.interface.js';

/**
 * A call as its audit records name it, kept with something decided later and elsewhere: an
 * operator's ask, which an operator may decide at the desk of another instance, after the call
 * has gone (docs/audit.md, "Who answered an ask, and when"). `of` is the id of the call's tool
 * seam decision.
 * @publicApi
 */
export interface McpAuditOrigin {
  readonly of?: string;
  readonly connId: string;
  readonly requestId: McpAuditEvent['requestId'];
  readonly transport: McpAuditEvent['transport'];
  readonly era?: string;
  readonly traceId?: string;
  readonly principal?: string;
  readonly issuer?: string;
  readonly clientId?: string;
}

type CallerFields = Pick<McpAuditEvent, 'principal' | 'issuer' | 'clientId'>;

/** Sets who called (`principal`, `issuer`, `clientId`) on `target`, as every record of a call says it. */
export function setCaller(target: CallerFields, principal: McpPrincipal | undefined): void {
  if (!principal) return;
  target.principal = principal.subject;
  if (principal.issuer) target.issuer = principal.issuer;
  const clientId = principal.claims?.client_id ?? principal.claims?.azp;
  if (typeof clientId === 'string') target.clientId = clientId;
}

/** `request` as its records name it, for a record made without it. */
export function auditOriginOf(request: McpSeamRequest, traceId?: string): McpAuditOrigin {
  const origin: { -readonly [K in keyof McpAuditOrigin]: McpAuditOrigin[K] } = {
    connId: request.connection.id,
    requestId: request.id,
    transport: request.transport,
  };
  if (request.auditId) origin.of = request.auditId;
  if (request.era) origin.era = request.era;
  if (traceId) origin.traceId = traceId;
  setCaller(origin, request.principal);
  return origin;
}

/** An operator's decision as its record says it (the approvals' decision, seen from here). */
export interface McpOperatorDecisionFacts {
  readonly approved: boolean;
  readonly operator: string;
  readonly reason?: string;
  /** Where it was taken: `console`, `webhook-link` or `api`. */
  readonly via: string;
}

/* The values a record's line writes as they are (record-line.ts): nothing else may pass. */
const TRANSPORTS: ReadonlySet<unknown> = new Set(['stdio', 'http', 'unknown']);
const ERAS: ReadonlySet<unknown> = new Set(['legacy', 'modern']);
const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/**
 * The record of an operator's decision taken at the desk: the call's own fields from `origin`,
 * the time it was decided, and in `detail` where it was taken. The origin comes back from the
 * approval store (Redis in cluster mode, or an app's own), so each field is taken only as what
 * it must be: a line writes `transport` and `era` unescaped, and a stored value must not shape
 * the record's other fields.
 */
export function operatorDecisionEvent(
  origin: McpAuditOrigin,
  name: string,
  decision: McpOperatorDecisionFacts,
  at: number,
): McpAuditEvent {
  const event: McpAuditEvent = {
    id: randomUUID(),
    kind: 'decision',
    time: new Date(at).toISOString(),
    connId: text(origin.connId) ?? 'unknown',
    requestId:
      typeof origin.requestId === 'number' && Number.isFinite(origin.requestId)
        ? origin.requestId
        : (text(origin.requestId) ?? 'unknown'),
    transport: TRANSPORTS.has(origin.transport) ? origin.transport : 'unknown',
    seam: 'operator',
    name,
    decision: decision.approved ? 'allow' : 'deny',
    detail: decision.approved
      ? `operator approved via ${decision.via}`
      : `operator denied via ${decision.via}: ${decision.reason ?? 'no reason given'}`,
    operator: decision.operator,
  };
  if (text(origin.of)) event.of = origin.of;
  if (ERAS.has(origin.era)) event.era = origin.era;
  if (text(origin.traceId)) event.traceId = origin.traceId;
  if (text(origin.principal)) event.principal = origin.principal;
  if (text(origin.issuer)) event.issuer = origin.issuer;
  if (text(origin.clientId)) event.clientId = origin.clientId;
  return event;
}
