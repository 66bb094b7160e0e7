import {
  Inject,
  Injectable,
  Optional,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import type { Subscription } from 'rxjs';
import type { McpOperatorAskEvent } from '../operator/operator-ask.interface.js';
import { MCP_OPERATOR_DESK, type McpOperatorDesk } from '../operator/operator-desk.interface.js';
import { askView, decisionView } from './console-ask.view.js';
import { consoleHeaders } from './console-headers.js';
import {
  MAX_STREAM_BACKLOG_BYTES,
  MAX_STREAMS,
  MAX_STREAMS_PER_OPERATOR,
  MCP_CONSOLE_SETTINGS,
} from './console.constants.js';
import type { McpConsoleSettings } from './console-settings.js';

const KEEP_ALIVE_MS = 15_000;
/** The pending count is refreshed at most this often, however many asks arrive. */
const COUNT_INTERVAL_MS = 250;

interface Stream {
  readonly res: ServerResponse;
  readonly operator: string;
  /** Whether the session that opened the stream still holds. */
  readonly live?: () => Promise<boolean>;
}

/**
 * The console's live feed (`<path>/events`, SSE). One subscription to the
 * desk's events serves every open console on this instance; each event is
 * one small message (a new ask, or an id that was decided or expired), and
 * the pending total at most four times a second, so a burst of asks costs a
 * console a bounded stream, never a page reload each. Streams are bounded per
 * operator and in all; one whose client stops reading is closed once its
 * backlog passes a bound (the page reconnects and reloads its page). Each
 * keep-alive also asks whether the stream's session still holds, so a stream
 * outlives its session (signed out, or the scope lost) by one interval at most.
 */
@Injectable()
export class ConsoleEventsHub implements OnModuleInit, OnModuleDestroy {
  private readonly streams = new Set<Stream>();
  private readonly perOperator = new Map<string, number>();
  private subscription?: Subscription;
  private keepAlive?: NodeJS.Timeout;
  private countTimer?: NodeJS.Timeout;
  private countDue = false;

  constructor(
    @Inject(MCP_CONSOLE_SETTINGS) private readonly settings: McpConsoleSettings,
    @Optional() @Inject(MCP_OPERATOR_DESK) private readonly desk?: McpOperatorDesk,
  ) {}

  onModuleInit(): void {
    if (!this.settings.enabled || !this.desk) return;
    this.subscription = this.desk.events$.subscribe((event) => this.publish(event));
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
    clearInterval(this.keepAlive);
    clearTimeout(this.countTimer);
    for (const stream of this.streams) stream.res.end();
    this.streams.clear();
    this.perOperator.clear();
  }

  /** Open streams (for tests and health checks). */
  get size(): number {
    return this.streams.size;
  }

  /**
   * Starts an event stream on `res` for `operator`, while `live` says its session holds; false
   * (nothing written) when over a bound.
   */
  open(res: ServerResponse, operator: string, live?: () => Promise<boolean>): boolean {
    const held = this.perOperator.get(operator) ?? 0;
    if (held >= MAX_STREAMS_PER_OPERATOR || this.streams.size >= MAX_STREAMS) return false;
    const stream = { res, operator, live };
    this.streams.add(stream);
    this.perOperator.set(operator, held + 1);
    res.writeHead(200, {
      ...consoleHeaders(),
      'Content-Type': 'text/event-stream',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    res.once('close', () => this.drop(stream));
    this.keepAlive ??= setInterval(() => this.tick(), KEEP_ALIVE_MS);
    this.keepAlive.unref();
    return true;
  }

  /* A keep-alive to every stream; a stream whose session ended is closed instead. */
  private tick(): void {
    this.broadcast(': keep-alive\n\n');
    for (const stream of this.streams) {
      stream.live?.().then(
        (live) => live || this.close(stream),
        () => this.close(stream),
      );
    }
  }

  private close(stream: Stream): void {
    stream.res.end();
    this.drop(stream);
  }

  private drop(stream: Stream): void {
    if (!this.streams.delete(stream)) return;
    const held = (this.perOperator.get(stream.operator) ?? 1) - 1;
    if (held > 0) this.perOperator.set(stream.operator, held);
    else this.perOperator.delete(stream.operator);
    if (this.streams.size === 0) {
      clearInterval(this.keepAlive);
      this.keepAlive = undefined;
    }
  }

  private publish(event: McpOperatorAskEvent): void {
    if (this.streams.size === 0) return;
    if (event.type === 'pending') this.send('pending', askView(event.ask));
    else if (event.type === 'decided') this.send('decided', decisionView(event.ask));
    else this.send('expired', { id: event.id });
    this.countSoon();
  }

  /* The total after a change, read once per interval for every stream together. */
  private countSoon(): void {
    this.countDue = true;
    if (this.countTimer) return;
    this.countTimer = setTimeout(() => {
      this.countTimer = undefined;
      if (!this.countDue || !this.desk) return;
      this.countDue = false;
      this.desk.pending({ limit: 1 }).then(
        (page) => this.send('count', { total: page.total }),
        () => undefined,
      );
    }, COUNT_INTERVAL_MS);
    this.countTimer.unref();
  }

  private send(name: string, data: unknown): void {
    if (data === undefined) return;
    this.broadcast(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  private broadcast(frame: string): void {
    for (const stream of this.streams) {
      if (stream.res.writableLength > MAX_STREAM_BACKLOG_BYTES) {
        stream.res.destroy();
        this.drop(stream);
      } else {
        stream.res.write(frame);
      }
    }
  }
}
