import { Inject, Injectable, Optional } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_OPERATOR_DESK, type McpOperatorDesk } from '../operator/operator-desk.interface.js';
import { askView, decisionView } from './console-ask.view.js';
import { ConsoleEventsHub } from './console-events.hub.js';
import { ConsoleHistory } from './console-history.ring.js';
import {
  renderAsksPage,
  renderHistoryPage,
  renderMessagePage,
  type ConsoleAsksPage,
} from './console-page.renderer.js';
import { redirect, reply, replyJson } from './console-reply.js';
import { readFields, sameOrigin } from './console-request.js';
import { ConsoleSessions, csrfMatches, type ConsoleSession } from './console-session.service.js';
import { CONSOLE_PAGE_SIZE, MAX_REASON_CHARS, MCP_CONSOLE_SETTINGS } from './console.constants.js';
import type { McpConsoleSettings } from './console-settings.js';
import { MCP_CONSOLE_TASKS, type McpConsoleTasks } from './console-tasks.interface.js';

/** How the console answers each refusal of the desk. */
const PROBLEM_STATUS = {
  'not found': 404,
  'already decided': 409,
  'own call': 403,
  'not an approver': 403,
  'reason required': 400,
} as const;

/** Longest cursor accepted back from a page (the store's cursors are short). */
const MAX_CURSOR_CHARS = 512;

/**
 * What a signed-in operator does: see a page of pending asks (HTML or JSON),
 * follow them live, read the history, and decide. Every decision goes
 * through the desk, which enforces the four-eyes rule itself; the console
 * adds the browser's part: the session, its CSRF token and the Origin.
 */
@Injectable()
export class ConsoleDecisions {
  constructor(
    private readonly sessions: ConsoleSessions,
    private readonly hub: ConsoleEventsHub,
    private readonly history: ConsoleHistory,
    @Inject(MCP_CONSOLE_SETTINGS) private readonly settings: McpConsoleSettings,
    @Optional() @Inject(MCP_OPERATOR_DESK) private readonly desk?: McpOperatorDesk,
    @Optional() @Inject(MCP_CONSOLE_TASKS) private readonly tasks?: McpConsoleTasks,
  ) {}

  async page(req: IncomingMessage, res: ServerResponse, base: string, cursor?: string) {
    const session = await this.signedIn(req, res, base, 'page');
    if (!session) return;
    const [page, tasks] = await Promise.all([
      this.read(cursor),
      // A store that cannot list shows no tasks rather than failing the asks' page.
      this.tasks?.running(CONSOLE_PAGE_SIZE).catch(() => []) ?? [],
    ]);
    reply(res, 200, 'html', renderAsksPage(base, session, { ...page, tasks }));
  }

  /** One ask's page (where the modern era's notice points); the ask or what became of it. */
  async askPage(req: IncomingMessage, res: ServerResponse, base: string, id: string) {
    const session = await this.signedIn(req, res, base, 'page');
    if (!session) return;
    const record = await this.desk!.get(id);
    if (!record || record.decision) {
      const decision = record && decisionView(record);
      const message = decision
        ? `${decision.operator} ${decision.approved ? 'approved' : 'denied'} this ask.`
        : 'This ask is gone: it expired or its call ended.';
      return reply(res, 200, 'html', renderMessagePage(base, 'No longer pending', message));
    }
    const { total } = await this.desk!.pending({ limit: 1 });
    reply(
      res,
      200,
      'html',
      renderAsksPage(base, session, { asks: [askView(record)], total, single: true }),
    );
  }

  async pageJson(req: IncomingMessage, res: ServerResponse, base: string, cursor?: string) {
    if (!(await this.signedIn(req, res, base, 'json'))) return;
    replyJson(res, 200, { ...(await this.read(cursor)), now: Date.now() });
  }

  async historyPage(req: IncomingMessage, res: ServerResponse, base: string) {
    const session = await this.signedIn(req, res, base, 'page');
    if (session) reply(res, 200, 'html', renderHistoryPage(base, session, this.history.recent()));
  }

  async events(req: IncomingMessage, res: ServerResponse, base: string) {
    const session = await this.signedIn(req, res, base, 'json');
    if (!session) return;
    // The stream lasts while its session does: the hub asks again at each keep-alive.
    const live = async () => (await this.sessions.of(req, base))?.id === session.id;
    if (!this.hub.open(res, session.operator.subject, live)) {
      replyJson(res, 429, { problem: 'too many streams' });
    }
  }

  async decide(
    wrapper: object,
    req: IncomingMessage,
    res: ServerResponse,
    base: string,
    id: string,
  ) {
    const session = await this.signedIn(req, res, base, 'json');
    if (!session) return;
    // The Origin and the token in a header (or field) a cross-site page can neither forge nor read.
    const fields = await readFields(wrapper, req);
    const token = req.headers['x-csrf-token'] ?? fields.csrf;
    if (!sameOrigin(req, this.settings.origin) || !csrfMatches(session, token)) {
      return replyJson(res, 403, { problem: 'forbidden' });
    }
    const approve = fields.approve === true || fields.approve === 'true';
    const reason = typeof fields.reason === 'string' ? fields.reason.trim() : '';
    if (reason.length > MAX_REASON_CHARS)
      return replyJson(res, 400, { problem: 'reason too long' });
    if (!approve && !reason) return replyJson(res, 400, { problem: 'reason required' });
    const result = await this.desk!.decide(id, session.operator, {
      approve,
      reason: reason || undefined,
      via: 'console',
    });
    if (!result.ok) return replyJson(res, PROBLEM_STATUS[result.problem] ?? 409, result);
    replyJson(res, 200, { ok: true, decision: decisionView(result.record) });
  }

  /* The session, or the answer to a request without one (also when the desk is absent). */
  private async signedIn(
    req: IncomingMessage,
    res: ServerResponse,
    base: string,
    kind: 'page' | 'json',
  ): Promise<ConsoleSession | undefined> {
    if (!this.desk) {
      replyJson(res, 503, { problem: 'no operator desk' });
      return undefined;
    }
    const session = await this.sessions.of(req, base);
    if (session) return session;
    if (kind === 'page')
      redirect(res, `${base}/login?return=${encodeURIComponent(req.url ?? base)}`);
    else replyJson(res, 401, { problem: 'signed out' });
    return undefined;
  }

  private async read(cursor?: string): Promise<ConsoleAsksPage> {
    const from = cursor && cursor.length <= MAX_CURSOR_CHARS ? cursor : undefined;
    const page = await this.desk!.pending({ cursor: from, limit: CONSOLE_PAGE_SIZE });
    return {
      asks: page.asks.map(askView),
      total: page.total,
      nextCursor: page.nextCursor,
      cursor: from,
    };
  }
}
