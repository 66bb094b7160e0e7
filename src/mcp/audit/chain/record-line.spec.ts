import fc from 'fast-check';
import type { McpAuditEvent } from '../../authorization/audit/mcp-audit-event.interface.js';
import {
  operatorDecisionEvent,
  type McpAuditOrigin,
} from '../../authorization/audit/audit-origin.js';
import type { McpAuditCheckpointRecord } from './audit-record.js';
import { auditEventJson, recordLine } from './record-line.js';

const PREV = 'ab'.repeat(32);

/* What the line must hold: the record as JSON sees it, with its place in the chain. */
const expected = (record: object, instance = 'host-1', seq = 7) =>
  JSON.parse(JSON.stringify({ ...record, instance, seq, prev: PREV })) as unknown;

/** Every field of an event set: a field added to the interface fails to compile here. */
const everyField: Required<McpAuditEvent> = {
  id: '0b5c2f14-1f6b-4f0e-9d39-3f8c6f0c9a11',
  kind: 'decision',
  time: '2026-12-05T06:00:00.000Z',
  connId: 'conn-1',
  requestId: 'req-1',
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  transport: 'http',
  principal: 'alice',
  issuer: 'https://issuer.example',
  clientId: 'client-1',
  era: 'modern',
  seam: 'tool',
  name: 'send_mail',
  decision: 'ask',
  detail: 'Send it?',
  operator: 'bob',
  policies: ['policy0', 'ask-mail'],
  policyVersion: 'sha256:00ff',
  shadow: { decision: 'deny', policies: ['forbid-mail'] },
  argumentsDigest: 'cd'.repeat(32),
  arguments: { to: ['a@example.com'], body: { text: 'hi', n: 1, ok: true, none: null } },
  of: 'f00d',
  audience: 'https://api.example',
  scope: 'mail.send',
  outcome: 'ok',
  durationMs: 12.345,
};

describe('recordLine', () => {
  it('writes every field of an event, then instance, seq and prev', () => {
    const line = recordLine(everyField, 'host-1', 7, PREV);
    expect(JSON.parse(line)).toEqual(expected(everyField));
    expect(Object.keys(JSON.parse(line) as object).slice(-3)).toEqual(['instance', 'seq', 'prev']);
  });

  it('leaves out what is undefined, as JSON.stringify does', () => {
    const event: McpAuditEvent = {
      id: 'id-1',
      kind: 'outcome',
      time: '2026-12-05T06:00:00.000Z',
      connId: 'c',
      requestId: 3,
      transport: 'stdio',
      seam: 'tool',
      name: 'echo',
      decision: 'allow',
      principal: undefined,
      outcome: 'isError',
      durationMs: 0.5,
    };
    const line = recordLine(event, 'host-1', 7, PREV);
    expect(line).not.toContain('principal');
    expect(JSON.parse(line)).toEqual(expected(event));
  });

  it.each([
    ['a quote and a backslash', 'say "hi" \\ bye'],
    ['control characters', 'line\nbreak\ttab\u0000nul\u001fus\r'],
    ['a lone surrogate', 'half \ud800 of a pair'],
    ['a whole pair and U+2028', 'emoji 😀 sep \u2028 end'],
    ['a JSON look-alike', '","decision":"allow'],
  ])('escapes %s in whatever a caller or an app shapes', (_, text) => {
    const event: McpAuditEvent = {
      ...everyField,
      connId: text,
      requestId: text,
      principal: text,
      issuer: text,
      clientId: text,
      traceId: text,
      name: text,
      detail: text,
      operator: text,
      policyVersion: text,
      of: text,
      audience: text,
      scope: text,
      policies: [text],
      arguments: { [text]: text },
    };
    const line = recordLine(event, text, 7, PREV);
    // One record, one line: JSON Lines.
    for (const raw of ['\n', '\r', '\u0000']) expect(line).not.toContain(raw);
    expect(JSON.parse(line)).toEqual(expected(event, text));
    // The same text JSON.stringify writes for each such value.
    expect(line).toContain(`"name":${JSON.stringify(text)}`);
  });

  it('writes any UTF-16 text and any JSON value so that it parses back, as one line', () => {
    // Every code unit, surrogates alone or in pairs included.
    const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
    const text = fc.string({ unit: codeUnit, maxLength: 24 });
    const value = fc.jsonValue({ maxDepth: 3 });
    const id = fc.oneof(text, fc.integer());
    fc.assert(
      fc.property(
        text,
        id,
        text,
        value,
        fc.option(text, { nil: undefined }),
        (name, requestId, who, args, detail) => {
          const event: McpAuditEvent = {
            ...everyField,
            name,
            requestId,
            principal: who,
            connId: who,
            detail,
            arguments: args,
          };
          const line = recordLine(event, who, 7, PREV);
          expect(line.includes('\n')).toBe(false);
          expect(JSON.parse(line)).toEqual(expected(event, who));
          // Escaped as JSON.stringify escapes it: a lone surrogate stays itself, not U+FFFD.
          expect(line).toContain(`"name":${JSON.stringify(name)}`);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('writes a non-finite duration as JSON.stringify does (null)', () => {
    const event = { ...everyField, durationMs: Number.NaN };
    expect((JSON.parse(recordLine(event, 'h', 1, PREV)) as McpAuditEvent).durationMs).toBeNull();
  });

  it('keeps an argument named __proto__ as a plain key', () => {
    const args = JSON.parse('{"__proto__":{"admin":true},"x":1}') as unknown;
    const line = recordLine({ ...everyField, arguments: args }, 'h', 1, PREV);
    const parsed = JSON.parse(line) as { arguments: object };
    expect(Object.keys(parsed.arguments)).toEqual(['__proto__', 'x']);
    expect(line).toContain(JSON.stringify(args));
  });

  it('writes a checkpoint, its multi-line note escaped', () => {
    const checkpoint: McpAuditCheckpointRecord = {
      id: 'cp-1',
      kind: 'checkpoint',
      time: '2026-12-05T06:00:00.000Z',
      checkpoint: 'mcp-warden/echo/host-1\n42\nq83vEjRFZ4k=\n\n— mcp-warden-audit AAAA\n',
    };
    const line = recordLine(checkpoint, 'host-1', 7, PREV);
    expect(line).not.toContain('\n');
    expect(JSON.parse(line)).toEqual(expected(checkpoint));
  });
});

describe("a desk's record, from a call kept in an approval store", () => {
  const decision = { approved: false, operator: 'bob', reason: 'no', via: 'console' };

  it('takes from a forged origin only what each field may be: one line, its fields its own', () => {
    // What a writer to the store (Redis, say) could put in an ask's `call`.
    const forged = {
      of: 'decision-1',
      connId: 'conn-1',
      requestId: { nested: true },
      transport: 'http"}\n{"kind":"decision',
      era: 'modern","principal":"root","operator":"nobody',
      principal: 7,
      issuer: 'https://issuer.example',
    } as unknown as McpAuditOrigin;
    const event = operatorDecisionEvent(forged, 'purge', decision, Date.parse(everyField.time));
    const line = recordLine(event, 'host-1', 7, PREV);
    expect(line).not.toContain('\n');
    expect(JSON.parse(line)).toEqual(expected(event));
    expect(event).toMatchObject({
      transport: 'unknown',
      requestId: 'unknown',
      operator: 'bob',
      of: 'decision-1',
      connId: 'conn-1',
      issuer: 'https://issuer.example',
      detail: 'operator denied via console: no',
      time: everyField.time,
    });
    expect(event).not.toHaveProperty('era');
    expect(event).not.toHaveProperty('principal');
  });

  it('keeps what a call of this framework stored', () => {
    const origin: McpAuditOrigin = {
      of: 'decision-1',
      connId: 'http:abc',
      requestId: 3,
      transport: 'stdio',
      era: 'legacy',
      traceId: everyField.traceId,
      principal: 'alice',
      issuer: 'https://issuer.example',
      clientId: 'client-1',
    };
    const event = operatorDecisionEvent(origin, 'purge', { ...decision, approved: true }, 0);
    expect(event).toMatchObject({ ...origin, decision: 'allow', seam: 'operator' });
    expect(event.detail).toBe('operator approved via console');
  });
});

describe('auditEventJson', () => {
  it('writes the JSON of JSON.stringify(event): every field, nothing of the chain', () => {
    const json = auditEventJson(everyField);
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(everyField)));
    expect(json).not.toContain('"prev"');
  });

  it('is the line of the record less its place in the chain', () => {
    const line = recordLine(everyField, 'host-1', 7, PREV);
    expect(line.startsWith(auditEventJson(everyField).slice(0, -1) + ',"instance":')).toBe(true);
  });

  it('escapes whatever a caller shapes, and leaves out what is undefined', () => {
    const text = 'say "hi" \\ \n \ud800 end';
    const event: McpAuditEvent = { ...everyField, name: text, detail: undefined };
    const json = auditEventJson(event);
    expect(json).not.toContain('\n');
    expect(json).not.toContain('detail');
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(event)));
  });
});
