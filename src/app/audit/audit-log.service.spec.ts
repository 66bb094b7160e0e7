import { jest } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Subject } from 'rxjs';
import type { McpAuditEvent, McpWarden } from '../../index.js';
import { LogLineWriter } from '../logging/log-line.writer.js';
import { AuditLogService } from './audit-log.service.js';

/** The end of the current turn of the event loop (setImmediate callbacks run in order). */
const turnEnded = () => new Promise<void>((resolve) => setImmediate(resolve));

const event = (name: string) => ({ kind: 'decision', name, decision: 'allow' }) as McpAuditEvent;

describe('AuditLogService (the audit lines on stderr)', () => {
  let audit$: Subject<McpAuditEvent>;
  let service: AuditLogService;
  let dir: string;
  let file: string;
  /* What the service handed its writer, one string per handoff. */
  let handed: string[];
  const auditLogFile = process.env.AUDIT_LOG_FILE;

  /* The audit names the file holds once the service has shut down (its writer closed). */
  const written = async () => {
    await service.onApplicationShutdown();
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as { audit: McpAuditEvent }).audit.name);
  };

  beforeEach(() => {
    // The stream alone: no file beside it.
    delete process.env.AUDIT_LOG_FILE;
    dir = mkdtempSync(join(tmpdir(), 'audit-log-'));
    file = join(dir, 'stderr.log');
    audit$ = new Subject<McpAuditEvent>();
    handed = [];
    const write = LogLineWriter.prototype.write;
    jest.spyOn(LogLineWriter.prototype, 'write').mockImplementation(function (
      this: LogLineWriter,
      lines: string,
    ) {
      handed.push(lines);
      write.call(this, lines);
    });
    // A real writer, to a file standing in for stderr.
    service = new AuditLogService({ audit$ } as unknown as McpWarden, file);
    service.onApplicationBootstrap();
  });

  afterEach(async () => {
    await service.onApplicationShutdown();
    jest.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
    if (auditLogFile !== undefined) process.env.AUDIT_LOG_FILE = auditLogFile;
  });

  it("hands a turn's events on together at its end, one JSON line each, in order", async () => {
    audit$.next(event('a'));
    await Promise.resolve();
    process.nextTick(() => audit$.next(event('b')));
    await new Promise<void>((resolve) => process.nextTick(resolve));
    audit$.next(event('c'));
    expect(handed).toEqual([]);

    await turnEnded();
    expect(handed).toHaveLength(1);
    expect(await written()).toEqual(['a', 'b', 'c']);
  });

  it('gives each turn its own handoff', async () => {
    audit$.next(event('first'));
    await turnEnded();
    audit$.next(event('second'));
    await turnEnded();
    expect(handed).toHaveLength(2);
    expect(await written()).toEqual(['first', 'second']);
  });

  it('writes what is pending at shutdown, before the turn ends', async () => {
    audit$.next(event('last'));
    expect(await written()).toEqual(['last']);
    await turnEnded();
    expect(handed).toHaveLength(1);
  });
});
