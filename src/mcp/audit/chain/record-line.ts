import type { McpAuditEvent } from '../../authorization/audit/mcp-audit-event.interface.js';
import type { McpAuditCheckpointRecord } from './audit-record.js';
import { jsonString } from '../../core/common/json-string.js';

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

function json(value: unknown): string {
  if (typeof value === 'string') return jsonString(value);
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
      ? head(record) +
        ',"checkpoint":' +
        jsonString((record as McpAuditCheckpointRecord).checkpoint)
      : head(record) + eventFields(record as McpAuditEvent);
  return (
    fields + ',"instance":' + jsonString(instance) + ',"seq":' + seq + ',"prev":"' + prev + '"}'
  );
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
  let line = ',"connId":' + jsonString(event.connId) + ',"requestId":' + json(event.requestId);
  if (event.traceId !== undefined) line += ',"traceId":' + jsonString(event.traceId);
  line += ',"transport":"' + event.transport + '"';
  if (event.principal !== undefined) line += ',"principal":' + jsonString(event.principal);
  if (event.issuer !== undefined) line += ',"issuer":' + jsonString(event.issuer);
  if (event.clientId !== undefined) line += ',"clientId":' + jsonString(event.clientId);
  if (event.era !== undefined) line += ',"era":"' + event.era + '"';
  line += ',"seam":"' + event.seam + '","name":' + jsonString(event.name);
  line += ',"decision":"' + event.decision + '"';
  if (event.detail !== undefined) line += ',"detail":' + jsonString(event.detail);
  if (event.operator !== undefined) line += ',"operator":' + jsonString(event.operator);
  if (event.policies !== undefined) line += ',"policies":' + json(event.policies);
  if (event.policyVersion !== undefined)
    line += ',"policyVersion":' + jsonString(event.policyVersion);
  if (event.shadow !== undefined) line += ',"shadow":' + json(event.shadow);
  if (event.argumentsDigest !== undefined) {
    line += ',"argumentsDigest":"' + event.argumentsDigest + '"';
  }
  if (event.arguments !== undefined) line += ',"arguments":' + json(event.arguments);
  if (event.of !== undefined) line += ',"of":' + jsonString(event.of);
  if (event.audience !== undefined) line += ',"audience":' + jsonString(event.audience);
  if (event.scope !== undefined) line += ',"scope":' + jsonString(event.scope);
  if (event.outcome !== undefined) line += ',"outcome":"' + event.outcome + '"';
  if (event.durationMs !== undefined) line += ',"durationMs":' + json(event.durationMs);
  return line;
}
