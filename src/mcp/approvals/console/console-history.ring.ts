import {
  Inject,
  Injectable,
  Optional,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { McpAuditService } from '../../authorization/audit/mcp-audit.service.js';
import { MCP_OPERATOR_DESK, type McpOperatorDesk } from '../operator/operator-desk.interface.js';
import { decisionView } from './console-ask.view.js';
import { HISTORY_SIZE, MCP_CONSOLE_SETTINGS } from './console.constants.js';
import type { McpConsoleSettings } from './console-settings.js';

/** One line of the console's history. */
export interface ConsoleHistoryEntry {
  readonly time: number;
  /** What happened: `approved`, `denied`, or the audit event's decision. */
  readonly outcome: string;
  readonly tool: string;
  /** The caller, when known. */
  readonly caller?: string;
  /** The operator, when one decided. */
  readonly operator?: string;
  /** The operator's reason, or the audit event's detail. */
  readonly detail?: string;
  /** The policies that asked, when a policy did. */
  readonly policies?: string;
}

/**
 * The recent operator asks and decisions, newest last, in a ring of
 * `HISTORY_SIZE`: every decision the desk announces (from any instance, so a
 * console sees decisions whichever instance the call waited on), and this
 * instance's audit events of the operator seam that no operator took (an ask
 * queued, an ask timed out), so no decision is listed twice. Nothing older is
 * kept; the audit stream itself is where a durable record belongs.
 */
@Injectable()
export class ConsoleHistory implements OnModuleInit, OnModuleDestroy {
  private readonly ring: ConsoleHistoryEntry[] = [];
  private readonly subscriptions: Subscription[] = [];

  constructor(
    private readonly audit: McpAuditService,
    @Inject(MCP_CONSOLE_SETTINGS) private readonly settings: McpConsoleSettings,
    @Optional() @Inject(MCP_OPERATOR_DESK) private readonly desk?: McpOperatorDesk,
  ) {}

  onModuleInit(): void {
    if (!this.settings.enabled || !this.desk) return;
    this.subscriptions.push(
      this.desk.events$.subscribe((event) => {
        if (event.type !== 'decided') return;
        const decision = decisionView(event.ask);
        if (!decision) return;
        this.push({
          time: decision.decidedAt,
          outcome: decision.approved ? 'approved' : 'denied',
          tool: decision.tool,
          caller: decision.caller,
          operator: decision.operator,
          detail: decision.reason,
          policies: decision.policies || undefined,
        });
      }),
      this.audit.events$.subscribe((event) => {
        if (event.seam === 'operator' && event.operator === undefined) {
          this.push({
            time: Date.parse(event.time),
            outcome: event.decision,
            tool: event.name,
            caller: event.principal,
            detail: event.detail,
            policies: event.policies?.join(', '),
          });
        }
      }),
    );
  }

  onModuleDestroy(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.unsubscribe();
  }

  /** The entries, newest first. */
  recent(): readonly ConsoleHistoryEntry[] {
    return [...this.ring].reverse();
  }

  private push(entry: ConsoleHistoryEntry): void {
    this.ring.push(entry);
    if (this.ring.length > HISTORY_SIZE) this.ring.shift();
  }
}
