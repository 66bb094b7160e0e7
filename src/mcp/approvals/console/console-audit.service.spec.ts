import type { McpAuditEntry } from '../../audit/audit-sink.interface.js';
import type { McpAuditEvent } from '../../authorization/audit/mcp-audit-event.interface.js';
import { rowOf } from './console-audit.service.js';

/* An elicitation step of alice's call, as the journal hands it to the page. */
function step(decision: 'allow' | 'deny', detail: string): McpAuditEntry {
  const record: McpAuditEvent = {
    id: `step-${detail}`,
    kind: 'decision',
    time: '2026-12-07T10:00:00.000Z',
    connId: 'http:c1',
    requestId: 1,
    transport: 'http',
    principal: 'alice',
    seam: 'elicitation',
    name: 'purge',
    decision,
    detail,
    of: 'decision-1',
  };
  return { line: '{}', record, instance: 'i', seq: 2 };
}

describe('the Audit page’s rows', () => {
  it("names the caller as the approver of the caller's own answer", () => {
    expect(rowOf(step('allow', 'user approved')).approver).toBe('caller alice');
    expect(rowOf(step('deny', 'user declined')).approver).toBe('caller alice');
  });

  it('names no approver for an approval withdrawn because its record could not be kept', () => {
    const row = rowOf(step('deny', 'audit_unavailable'));
    expect(row.approver).toBe('');
    expect([row.result, row.detail, row.call]).toEqual(['deny', 'audit_unavailable', 'decision-1']);
  });
});
