import { Inject, Injectable, Optional } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { McpAuditEvent } from '../../authorization/audit/mcp-audit-event.interface.js';
import type { McpAuditEntry } from '../../audit/audit-sink.interface.js';
import { MCP_AUDIT_VIEW, type McpAuditView } from '../../audit/audit-view.interface.js';
import { renderAuditPage, type ConsoleAuditRow } from './console-audit.renderer.js';
import { redirect, reply } from './console-reply.js';
import { queryParam } from './console-request.js';
import { ConsoleSessions } from './console-session.service.js';
import { MCP_CONSOLE_SETTINGS } from './console.constants.js';
import type { McpConsoleSettings } from './console-settings.js';
import { AUDIT_UNAVAILABLE } from '../../authorization/audit/audit-reasons.js';

const PAGE_SIZE = 50;
const FILTERS = ['principal', 'tool', 'decision', 'kind'] as const;

/**
 * The console's Audit page (docs/audit.md): the recent records of this instance's chain,
 * filtered and paged, one call's story (its decision, approval steps and outcome), and the
 * chain's verified state. Signed-in operators only, as every console page.
 */
@Injectable()
export class ConsoleAuditPages {
  constructor(
    private readonly sessions: ConsoleSessions,
    @Inject(MCP_CONSOLE_SETTINGS) settings: McpConsoleSettings,
    @Optional() @Inject(MCP_AUDIT_VIEW) private readonly view: McpAuditView | null = null,
  ) {
    // The journal keeps a window of recent records only for a console that can show it.
    if (settings.enabled) view?.keepRecent();
  }

  async page(req: IncomingMessage, res: ServerResponse, base: string): Promise<void> {
    const session = await this.sessions.of(req, base);
    if (!session) {
      return redirect(res, `${base}/login?return=${encodeURIComponent(req.url ?? base)}`);
    }
    const filters = Object.fromEntries(
      FILTERS.map((name) => [name, (queryParam(req, name) ?? '').trim().slice(0, 200)]),
    ) as Record<(typeof FILTERS)[number], string>;
    const entries = this.view?.recentRecords() ?? [];
    const rows = entries.map(rowOf).reverse();
    const matching = rows.filter(
      (row) =>
        (!filters.principal || row.principal === filters.principal) &&
        (!filters.tool || row.name === filters.tool) &&
        (!filters.decision || row.result === filters.decision) &&
        (!filters.kind || row.kind === filters.kind),
    );
    const pages = Math.ceil(matching.length / PAGE_SIZE);
    const asked = Number(queryParam(req, 'page'));
    const page = Number.isInteger(asked) && asked >= 1 ? Math.min(asked, Math.max(1, pages)) : 1;
    const call = queryParam(req, 'call');
    const story = call
      ? { id: call, rows: rows.filter((row) => row.call === call).reverse() }
      : undefined;
    reply(
      res,
      200,
      'html',
      renderAuditPage(base, session, {
        rows: matching.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
        total: matching.length,
        page,
        pages,
        filters,
        story,
        state: this.view?.chainState(),
      }),
    );
  }
}

/** One record as the page shows it (exported for its spec). */
export function rowOf(entry: McpAuditEntry): ConsoleAuditRow {
  const record = entry.record as Partial<McpAuditEvent> & {
    id: string;
    time: string;
    kind: string;
  };
  // A call's story hangs on its tool decision; its steps, refusal and outcome name it in `of`.
  const decision =
    record.of ?? (record.kind === 'decision' && record.seam === 'tool' ? record.id : undefined);
  return {
    seq: entry.seq,
    id: record.id,
    time: record.time,
    kind: record.kind,
    seam: record.seam ?? '',
    principal: record.principal ?? '',
    name: record.name ?? '',
    result:
      record.kind === 'outcome'
        ? `${record.outcome} (${record.durationMs} ms)`
        : record.kind === 'checkpoint'
          ? 'signed'
          : (record.decision ?? ''),
    detail: record.detail ?? '',
    approver:
      record.operator ?? (answeredByCaller(record) ? `caller ${record.principal ?? ''}` : ''),
    call: decision,
  };
}

/*
 * An elicitation step is the caller's answer, except an approval withdrawn because its record
 * could not be kept (audit.failClosed): the server decided that one, not the caller.
 */
function answeredByCaller(record: { seam?: string; detail?: string }): boolean {
  return record.seam === 'elicitation' && record.detail !== AUDIT_UNAVAILABLE;
}
