import type { McpAuditEvent } from '../../authorization/audit/mcp-audit-event.interface.js';
import type { McpAuditCheckpointRecord } from './audit-record.js';

/*
 * A record's JSON line, written field by field. Every call writes two, and on Node 20 (V8 11)
 * `JSON.stringify` of a record took most of what the chain cost: it walks each object's
 * properties generically and escapes its strings one character at a time
 * (docs/audit.md, "Performance"). A record's fields are known, so each is appended directly:
 * a string that needs no escaping is quoted as it is, and anything else (a string with a quote,
 * a backslash, a control character or a surrogate; `arguments`; an array) still goes through
 * `JSON.stringify`, which stays the one authority on escaping. The line parses back to the
 * record; `record-line.spec.ts` holds every field of `McpAuditEvent` to that.
 */

/** A character `JSON.stringify` would escape, or a surrogate it may. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function quoted(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : '"' + text + '"';
}

function json(value: unknown): string {
  if (typeof value === 'string') return quoted(value);
  if (typeof value === 'number' && Number.isFinite(value)) return '' + value;
  return JSON.stringify(value) ?? 'null';
}

/**
 * The record's line: its fields, in the order of their declaration, then its place in the
 * chain (`instance`, `seq`, `prev`). A field left undefined is left out, as `JSON.stringify`
 * does.
 */
export function recordLine(
  record: McpAuditEvent | McpAuditCheckpointRecord,
  instance: string,
  seq: number,
  prev: string,
): string {
  const fields =
    record.kind === 'checkpoint'
      ? head(record) + ',"checkpoint":' + quoted((record as McpAuditCheckpointRecord).checkpoint)
      : head(record) + eventFields(record as McpAuditEvent);
  return fields + ',"instance":' + quoted(instance) + ',"seq":' + seq + ',"prev":"' + prev + '"}';
}

/**
 * One event of `McpWarden.audit$` as a JSON object, its fields in the order of their
 * declaration: the same JSON as `JSON.stringify(event)` (its keys perhaps in another order), at
 * a third of the cost on Node 20. For an app that logs the stream, as the notes service does on
 * stderr. Like a record's line, it quotes the framework's own values (the id, the time, the
 * enums) as they are and checks whatever a caller or an app could shape.
 * @publicApi
 */
export function auditEventJson(event: McpAuditEvent): string {
  return head(event) + eventFields(event) + '}';
}

/*
 * The journal's and the audit service's own values (a UUID, an enum, an ISO time, a hex
 * digest) are quoted as they are; whatever a caller or an app could shape is checked.
 */
function head(record: McpAuditEvent | McpAuditCheckpointRecord): string {
  return '{"id":"' + record.id + '","kind":"' + record.kind + '","time":"' + record.time + '"';
}

/* McpAuditEvent's fields after id, kind and time. */
function eventFields(event: McpAuditEvent): string {
  let line = ',"connId":' + quoted(event.connId) + ',"requestId":' + json(event.requestId);
  if (event.traceId !== undefined) line += ',"traceId":' + quoted(event.traceId);
  line += ',"transport":"' + event.transport + '"';
  if (event.principal !== undefined) line += ',"principal":' + quoted(event.principal);
  if (event.issuer !== undefined) line += ',"issuer":' + quoted(event.issuer);
  if (event.clientId !== undefined) line += ',"clientId":' + quoted(event.clientId);
  if (event.era !== undefined) line += ',"era":"' + event.era + '"';
  line += ',"seam":"' + event.seam + '","name":' + quoted(event.name);
  line += ',"decision":"' + event.decision + '"';
  if (event.detail !== undefined) line += ',"detail":' + quoted(event.detail);
  if (event.operator !== undefined) line += ',"operator":' + quoted(event.operator);
  if (event.policies !== undefined) line += ',"policies":' + json(event.policies);
  if (event.policyVersion !== undefined) line += ',"policyVersion":' + quoted(event.policyVersion);
  if (event.shadow !== undefined) line += ',"shadow":' + json(event.shadow);
  if (event.argumentsDigest !== undefined) {
    line += ',"argumentsDigest":"' + event.argumentsDigest + '"';
  }
  if (event.arguments !== undefined) line += ',"arguments":' + json(event.arguments);
  if (event.of !== undefined) line += ',"of":' + quoted(event.of);
  if (event.audience !== undefined) line += ',"audience":' + quoted(event.audience);
  if (event.scope !== undefined) line += ',"scope":' + quoted(event.scope);
  if (event.outcome !== undefined) line += ',"outcome":"' + event.outcome + '"';
  if (event.durationMs !== undefined) line += ',"durationMs":' + json(event.durationMs);
  return line;
}
