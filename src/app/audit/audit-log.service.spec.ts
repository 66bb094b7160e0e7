import { jest } from '@jest/globals';
import { Subject } from 'rxjs';
import type { McpAuditEvent, McpWarden } from '../../index.js';
import { AuditLogService } from './audit-log.service.js';

/** The end of the current turn of the event loop (setImmediate callbacks run in order). */
const turnEnded = () => new Promise<void>((resolve) => setImmediate(resolve));

const event = (name: string) => ({ kind: 'decision', name, decision: 'allow' }) as McpAuditEvent;

describe('AuditLogService (the audit lines on stderr)', () => {
  let audit$: Subject<McpAuditEvent>;
  let service: AuditLogService;
  let writes: string[];
  const auditLogFile = process.env.AUDIT_LOG_FILE;

  beforeEach(() => {
    // The stream alone: no file beside it.
    delete process.env.AUDIT_LOG_FILE;
    audit$ = new Subject<McpAuditEvent>();
    writes = [];
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => {
      writes.push(String(chunk));
      return true;
    });
    service = new AuditLogService({ audit$ } as unknown as McpWarden);
    service.onApplicationBootstrap();
  });

  afterEach(async () => {
    await service.onApplicationShutdown();
    jest.restoreAllMocks();
    if (auditLogFile !== undefined) process.env.AUDIT_LOG_FILE = auditLogFile;
  });

  it("writes a turn's events in one write at its end, one JSON line each, in order", async () => {
    audit$.next(event('a'));
    await Promise.resolve();
    process.nextTick(() => audit$.next(event('b')));
    await new Promise<void>((resolve) => process.nextTick(resolve));
    audit$.next(event('c'));
    expect(writes).toEqual([]);

    await turnEnded();
    expect(writes).toHaveLength(1);
    const lines = writes[0]!.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => (JSON.parse(line) as { audit: McpAuditEvent }).audit.name)).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('gives each turn its own write', async () => {
    audit$.next(event('first'));
    await turnEnded();
    audit$.next(event('second'));
    await turnEnded();
    expect(writes.map((chunk) => JSON.parse(chunk).audit.name)).toEqual(['first', 'second']);
  });

  it('writes what is pending at shutdown, before the turn ends', async () => {
    audit$.next(event('last'));
    await service.onApplicationShutdown();
    expect(writes.map((chunk) => JSON.parse(chunk).audit.name)).toEqual(['last']);
    await turnEnded();
    expect(writes).toHaveLength(1);
  });
});
