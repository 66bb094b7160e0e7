import { Injectable } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  type CallToolResult,
  type ElicitRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { Authorizers, McpTool, type Authorizer } from '../../src/index.js';
import { ADAPTERS, createHttpApp, type HttpTestApp } from '../support/http-app.js';

/*
 * A deny of a tool that declares an output schema, seen by the official SDK
 * client (1.x) over Streamable HTTP. That client validates structuredContent
 * against the tool's output schema (cached from tools/list) even on an isError
 * result, and rejects the call (-32602) when it does not match; so a deny of a
 * tool the caller can see carries its denial JSON as text only. A tool the
 * caller cannot see (denied with empty arguments, so not listed) is denied the
 * way an unknown tool is, structuredContent included: a denied caller learns
 * nothing from the shape.
 */

const REPORT_INPUT = {
  type: 'object',
  properties: { id: { type: 'string' } },
  additionalProperties: false,
};

/** An output schema the denial body cannot match. */
const REPORT_OUTPUT = {
  type: 'object',
  properties: { id: { type: 'string' }, total: { type: 'number' } },
  required: ['id', 'total'],
  additionalProperties: false,
};

@Injectable()
class ReportTools {
  readonly ran: string[] = [];

  @McpTool({ description: 'Read a report', input: REPORT_INPUT, output: REPORT_OUTPUT })
  read_report({ id = 'R-1' }: { id?: string }) {
    this.ran.push(`read_report ${id}`);
    return { id, total: 42 };
  }

  @McpTool({
    description: 'Publish a report (needs approval)',
    input: REPORT_INPUT,
    output: REPORT_OUTPUT,
  })
  publish_report({ id = 'R-1' }: { id?: string }) {
    this.ran.push(`publish_report ${id}`);
    return { id, total: 42 };
  }

  @McpTool({ description: 'Read the payroll report', input: REPORT_INPUT, output: REPORT_OUTPUT })
  payroll_report() {
    this.ran.push('payroll_report');
    return { id: 'payroll', total: 1_000_000 };
  }
}

/**
 * read_report is visible (allowed with empty arguments) but denied for one id;
 * publish_report is asked; payroll_report, like any name not listed here, is
 * denied outright, so it is not listed either.
 */
const policy: Authorizer = (name, args) => {
  if (name === 'read_report') {
    return args.id === 'R-locked' ? { kind: 'deny', reason: 'report_locked' } : { kind: 'allow' };
  }
  if (name === 'publish_report') return { kind: 'ask', prompt: 'Publish the report?' };
  return { kind: 'deny', reason: 'not_yours' };
};

/** The text of a tool deny, exactly as the server writes it. */
const denialText = (tool: string, decision: 'deny' | 'ask', detail: string) =>
  JSON.stringify({ error: 'authorization_required', tool, decision, detail });

/** Asserts `result` is a text-only deny: isError, the denial JSON, no structuredContent. */
function expectTextOnlyDenial(
  result: CallToolResult,
  tool: string,
  decision: 'deny' | 'ask',
  detail: string,
): void {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  expect(result.content).toEqual([{ type: 'text', text: denialText(tool, decision, detail) }]);
}

/** The deny of a tool the caller cannot see, the same as of one that does not exist. */
const structuredDenial = (tool: string) => ({
  content: [{ type: 'text', text: denialText(tool, 'deny', 'not_yours') }],
  structuredContent: JSON.parse(denialText(tool, 'deny', 'not_yours')) as unknown,
  isError: true,
});

describe.each(ADAPTERS)('tool denies with an output schema, to the SDK client on %s', (adapter) => {
  let t: HttpTestApp;
  /** A client that cannot be asked: no elicitation capability. */
  let plain: Client;
  /** A client that is asked, and declines. */
  let decliner: Client;
  const elicited: ElicitRequest[] = [];

  const callTool = (client: Client, name: string, args: Record<string, unknown> = {}) =>
    client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

  beforeAll(async () => {
    t = await createHttpApp(
      {
        authorizer: policy,
        authorizerSource: 'configured',
        readAuthorizer: Authorizers.allowAll(),
        requireAuthorization: true,
      },
      [ReportTools],
      adapter,
    );
    plain = new Client({ name: 'jest-sdk-plain', version: '1.0.0' });
    decliner = new Client(
      { name: 'jest-sdk-decliner', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    decliner.setRequestHandler(ElicitRequestSchema, (request) => {
      elicited.push(request);
      return { action: 'decline' };
    });
    for (const client of [plain, decliner]) {
      await client.connect(new StreamableHTTPClientTransport(new URL(`${t.base}/mcp`)));
      // tools/list is where the client learns the output schemas it then validates against.
      await client.listTools();
    }
  });

  afterAll(async () => {
    // The clients first: a server closing under them would make them try to reconnect.
    await plain?.close();
    await decliner?.close();
    await t?.close();
  });

  beforeEach(() => {
    t.app.get(ReportTools).ran.length = 0;
    elicited.length = 0;
  });

  it('lists the visible tools with their output schemas; an allowed call is validated and resolves', async () => {
    const { tools } = await plain.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['publish_report', 'read_report']);
    for (const tool of tools) expect(tool.outputSchema).toEqual(REPORT_OUTPUT);

    const allowed = await callTool(plain, 'read_report', { id: 'R-7' });
    expect(allowed.isError).toBeFalsy();
    expect(allowed.structuredContent).toEqual({ id: 'R-7', total: 42 });
    expect(t.app.get(ReportTools).ran).toEqual(['read_report R-7']);
  });

  it('a deny of a visible tool resolves with isError and the denial text, not a -32602 rejection', async () => {
    const call = callTool(plain, 'read_report', { id: 'R-locked' });
    await expect(call).resolves.toMatchObject({ isError: true });
    expectTextOnlyDenial(await call, 'read_report', 'deny', 'report_locked');
    expect(t.app.get(ReportTools).ran).toEqual([]);
  });

  it('an ask to a client that cannot be asked resolves with isError and the ask denial text', async () => {
    const call = callTool(plain, 'publish_report', { id: 'R-2' });
    await expect(call).resolves.toMatchObject({ isError: true });
    expectTextOnlyDenial(await call, 'publish_report', 'ask', 'Publish the report?');
    expect(t.app.get(ReportTools).ran).toEqual([]);
  });

  it('an ask the client declines resolves with isError and the decline text', async () => {
    const call = callTool(decliner, 'publish_report', { id: 'R-2' });
    await expect(call).resolves.toMatchObject({ isError: true });
    expectTextOnlyDenial(await call, 'publish_report', 'ask', 'user declined');
    expect(elicited).toHaveLength(1);
    expect(elicited[0].params.message).toBe('Publish the report?');
    expect(t.app.get(ReportTools).ran).toEqual([]);
  });

  it('a tool the caller cannot see is denied with structuredContent, the same shape as an unknown tool', async () => {
    const hidden = await callTool(plain, 'payroll_report');
    const unknown = await callTool(plain, 'no_such_report');
    expect(hidden).toEqual(structuredDenial('payroll_report'));
    expect(unknown).toEqual(structuredDenial('no_such_report'));
    expect(Object.keys(hidden).sort()).toEqual(Object.keys(unknown).sort());
    expect(t.app.get(ReportTools).ran).toEqual([]);
  });
});
