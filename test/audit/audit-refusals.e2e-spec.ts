import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Injectable, UseGuards, type CanActivate } from '@nestjs/common';
import {
  McpAuditSinks,
  McpTool,
  McpWarden,
  type McpAuditEvent,
  type McpRequestContext,
} from '../../src/index.js';
import { createHttpApp, type HttpTestApp } from '../support/http-app.js';
import { auditAuthorizer, logDir } from './audit-app.js';

/*
 * Stories that end before a tool's body runs, or in a round that asks for input, in both eras
 * over Streamable HTTP with the official SDK v2 client: an ask nobody can be asked ends in a
 * recorded refusal; a guard of the tool's own that refuses ends in one too, with no outcome; a
 * 2026-07-28 round that asks its caller for input is no failure of its tool.
 */

const INPUT = { type: 'object', properties: { text: { type: 'string' } } };

class NeverGuard implements CanActivate {
  canActivate() {
    return false;
  }
}

@Injectable()
class RefusedTools {
  readonly ran: string[] = [];

  @McpTool({ description: 'Asked about by the fixture', input: INPUT })
  guarded() {
    this.ran.push('guarded');
    return 'guarded ran';
  }

  @McpTool({ description: 'Refused by a guard of its own', input: INPUT })
  @UseGuards(NeverGuard)
  own_guard() {
    this.ran.push('own_guard');
    return 'never';
  }

  @McpTool({ description: 'Asks its caller for a name', input: INPUT })
  async asks(_args: object, context: McpRequestContext) {
    this.ran.push('asks');
    const answer = await context.elicit('Name?', {
      type: 'object',
      properties: { name: { type: 'string' } },
    } as never);
    return `hello ${JSON.stringify(answer)}`;
  }

  @McpTool({ description: 'Asks for a name, and makes do without one', input: INPUT })
  async asks_quietly(_args: object, context: McpRequestContext) {
    this.ran.push('asks_quietly');
    try {
      const answer = await context.elicit('Name?', {
        type: 'object',
        properties: { name: { type: 'string' } },
      } as never);
      return `hello ${JSON.stringify(answer)}`;
    } catch {
      // In the 2026-07-28 era the question ends this round: the fallback is never sent.
      return 'hello stranger';
    }
  }
}

describe.each(['2025-11-25', '2026-07-28'] as const)('audit: refusals and rounds (%s)', (era) => {
  let t: HttpTestApp;
  const events: McpAuditEvent[] = [];
  beforeAll(async () => {
    t = await createHttpApp(
      { authorizer: auditAuthorizer, audit: { sinks: [McpAuditSinks.jsonl({ dir: logDir() })] } },
      [RefusedTools],
    );
    t.app.get(McpWarden).audit$.subscribe((event) => events.push(event));
  });
  afterAll(() => t?.close());

  async function client(elicits: boolean): Promise<Client> {
    const made = new Client(
      { name: 'refusals', version: '1' },
      {
        ...(elicits ? { capabilities: { elicitation: {} } } : {}),
        ...(era === '2026-07-28' ? { versionNegotiation: { mode: { pin: era } } } : {}),
      },
    );
    if (elicits) {
      made.setRequestHandler('elicitation/create', async () => ({
        action: 'accept',
        content: { name: 'bob' },
      }));
    }
    await made.connect(new StreamableHTTPClientTransport(new URL(t.url)));
    return made;
  }
  const story = (name: string) =>
    events
      .filter((event) => event.name === name && event.seam !== 'read')
      .map((event) => [event.kind, event.decision, event.outcome, event.detail]);

  it('an ask its caller cannot be asked: a refusal linked to the ask, no outcome', async () => {
    const c = await client(false);
    const result = await c.callTool({ name: 'guarded', arguments: {} });
    await c.close();
    expect(result.isError).toBe(true);
    const mine = events.filter((event) => event.name === 'guarded');
    const refusal = mine.find((event) => event.detail === 'approval_unavailable');
    expect(refusal).toMatchObject({ kind: 'decision', decision: 'deny', of: mine[0]!.id });
    expect(mine.some((event) => event.kind === 'outcome')).toBe(false);
    expect(t.app.get(RefusedTools).ran).not.toContain('guarded');
  });

  it('a guard of the tool’s own refuses: recorded as forbidden, with no outcome', async () => {
    const c = await client(false);
    const result = await c.callTool({ name: 'own_guard', arguments: {} });
    await c.close();
    expect(result.isError).toBe(true);
    expect(story('own_guard')).toEqual([
      ['decision', 'allow', undefined, undefined],
      ['decision', 'deny', undefined, 'forbidden'],
    ]);
    expect(t.app.get(RefusedTools).ran).not.toContain('own_guard');
  });

  // `asks_quietly` catches its question and returns: the round still ended asking.
  it.each(['asks', 'asks_quietly'])(
    '%s, a tool that asks its caller for input: the round that asked says so (input_required)',
    async (name) => {
      const c = await client(true);
      const result = await c.callTool({ name, arguments: {} });
      await c.close();
      // The caller was asked, and (in the modern era) the retry carried the answer.
      expect(JSON.stringify(result.content)).toContain('bob');
      const outcomes = story(name).filter(([kind]) => kind === 'outcome');
      // The modern era answers in a retry: the first round ends asking, the retry ends ok.
      expect(outcomes).toEqual(
        era === '2026-07-28'
          ? [
              ['outcome', 'allow', 'isError', 'input_required'],
              ['outcome', 'allow', 'ok', undefined],
            ]
          : [['outcome', 'allow', 'ok', undefined]],
      );
    },
  );
});
