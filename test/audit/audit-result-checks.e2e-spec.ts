import { Injectable } from '@nestjs/common';
import { PassThrough, Writable } from 'node:stream';
import { McpStdioTransport, McpTool, type McpAuditEvent } from '../../src/index.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import { INITIALIZE_PARAMS } from '../support/stdio-child.js';
import { until } from '../support/until.js';

/*
 * A result that fails its checks after the tool returned (not JSON, a getter that throws) is
 * the tool's failure: its caller is answered, over stdio too, and its outcome says so, never
 * `ok`. The stdio transport answers a message JSON.stringify throws on, as HTTP does.
 */

const text = (value: string) => ({ type: 'text', text: value });

@Injectable()
class OddResults {
  @McpTool({ description: 'A toJSON that gives a BigInt', input: { type: 'object' } })
  gives_bigint() {
    return { content: [text('x')], structuredContent: { v: { toJSON: () => 10n } } };
  }

  @McpTool({ description: 'A toJSON that throws', input: { type: 'object' } })
  throws_in_tojson() {
    const odd = {
      toJSON() {
        throw new Error('not today');
      },
    };
    return { content: [text('x')], structuredContent: { odd } };
  }

  @McpTool({ description: 'A getter that throws', input: { type: 'object' } })
  throws_in_getter() {
    return {
      content: [
        {
          type: 'text',
          get text(): string {
            throw new Error('no text');
          },
        },
      ],
    };
  }

  @McpTool({ description: 'A toJSON that works once only', input: { type: 'object' } })
  once_only() {
    let calls = 0;
    const fickle = {
      toJSON() {
        if (++calls > 1) throw new Error('asked twice');
        return 'fine';
      },
    };
    return { content: [text('x')], structuredContent: { fickle } };
  }

  @McpTool({ description: 'Answers', input: { type: 'object' } })
  fine() {
    return 'fine';
  }
}

/* stdout as JSON-RPC messages. */
class Lines extends Writable {
  readonly messages: any[] = [];
  private partial = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    const parts = (this.partial + chunk.toString('utf8')).split('\n');
    this.partial = parts.pop() ?? '';
    for (const line of parts) this.messages.push(JSON.parse(line));
    done();
  }
}

describe('audit: a result that fails its checks, over stdio', () => {
  let app: McpTestApp;
  let input: PassThrough;
  let output: Lines;
  let running: Promise<void>;
  const events: McpAuditEvent[] = [];
  let next = 0;

  beforeAll(async () => {
    app = await createMcpApp({ transport: 'stdio' }, [OddResults]);
    app.server.audit$.subscribe((event) => events.push(event));
    input = new PassThrough();
    output = new Lines();
    running = new McpStdioTransport(app.server, { input, output }).run();
  });
  afterAll(async () => {
    input.end();
    await running;
    await app.close();
  });

  /* One request on the pipe; its answer. */
  async function request(method: string, params: object): Promise<any> {
    const id = ++next;
    input.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    await until(() => output.messages.some((m) => m.id === id), `the answer to ${method}`);
    return output.messages.find((m) => m.id === id);
  }
  const call = (name: string) => request('tools/call', { name });
  const outcomeOf = (name: string) =>
    events.filter((e) => e.name === name && e.kind === 'outcome').map((e) => e.outcome);

  beforeAll(async () => {
    await request('initialize', INITIALIZE_PARAMS);
    input.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  });

  it.each(['gives_bigint', 'throws_in_tojson'])(
    '%s: an isError result that says it is not JSON, recorded isError',
    async (name) => {
      expect((await call(name)).result).toEqual({
        content: [text(`Tool ${name} produced a result that is not JSON`)],
        isError: true,
      });
      expect(outcomeOf(name)).toEqual(['isError']);
    },
  );

  it('a getter that throws is the tool’s failure, recorded threw', async () => {
    const answer = await call('throws_in_getter');
    expect(answer.result.isError).toBe(true);
    expect(outcomeOf('throws_in_getter')).toEqual(['threw']);
  });

  it('an answer JSON.stringify throws on is a JSON-RPC internal error; the process serves on', async () => {
    expect((await call('once_only')).error).toEqual({
      code: -32603,
      message: 'Internal error: the answer could not be written as JSON',
    });
    expect((await call('fine')).result).toEqual({ content: [text('fine')] });
  });
});
