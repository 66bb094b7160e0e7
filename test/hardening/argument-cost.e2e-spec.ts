import { Injectable } from '@nestjs/common';
import { IsString } from 'class-validator';
import { McpTool } from '../../src/index.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import { listen } from '../support/outbound.js';

/* What one call may cost: its arguments are bounded before validation, its result after. */

class NoteDto {
  @IsString()
  title!: string;
}

@Injectable()
class CostTools {
  dtoRuns = 0;

  @McpTool({ description: 'A DTO tool', input: NoteDto })
  note(args: NoteDto) {
    this.dtoRuns++;
    return args.title;
  }

  @McpTool({ description: 'Any object', input: { type: 'object' } })
  any() {
    return 'ran';
  }

  @McpTool({ description: 'Returns as many bytes as asked', input: { type: 'object' } })
  big({ bytes }: { bytes: number }) {
    return 'x'.repeat(bytes);
  }
}

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level++) value = { inner: value };
  return value;
}

describe('argument and result bounds', () => {
  let t: McpTestApp;
  afterEach(() => t?.close());

  it('150 000 argument keys to a DTO tool: an isError result naming the bound, before class-transformer sees them', async () => {
    t = await createMcpApp({}, [CostTools]);
    const args: Record<string, string> = { title: 't' };
    for (let key = 0; key < 150_000; key++) args[`k${key}`] = 'v';
    const result = await t.callTool('note', args);
    expect(result).toEqual({
      content: [
        {
          type: 'text',
          text: 'Invalid arguments for tool note: the arguments hold more than 10000 keys and items',
        },
      ],
      isError: true,
    });
    expect(t.app.get(CostTools).dtoRuns).toBe(0);
  });

  it('a DTO tool refuses a key it does not declare before transforming anything', async () => {
    t = await createMcpApp({}, [CostTools]);
    const result = await t.callTool('note', { title: 't', extra: 1 });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toBe('Invalid arguments for tool note: extra is not allowed');
  });

  it('100 000 levels of nesting: an isError result, not a -32603 from a stack overflow', async () => {
    t = await createMcpApp({}, [CostTools]);
    const response = await t.request('tools/call', {
      name: 'any',
      arguments: nested(100_000) as object,
    });
    expect(response.result).toEqual({
      content: [
        {
          type: 'text',
          text: 'Invalid arguments for tool any: arguments nest deeper than 32 levels',
        },
      ],
      isError: true,
    });
  });

  it('an array longer than maxArgumentArrayLength: an isError result', async () => {
    t = await createMcpApp({ limits: { maxArgumentArrayLength: 100 } }, [CostTools]);
    const result = await t.callTool('any', { list: Array.from({ length: 101 }, () => 1) });
    expect(result.content[0].text).toBe(
      'Invalid arguments for tool any: an array in the arguments has more than 100 items',
    );
  });

  it('arguments within every bound run', async () => {
    t = await createMcpApp({}, [CostTools]);
    expect(await t.callTool('any', { list: [1, 2, 3], deep: nested(30) })).toEqual({
      content: [{ type: 'text', text: 'ran' }],
    });
  });

  it('a result larger than maxResultBytes is an isError result that says so; one below it is delivered', async () => {
    t = await createMcpApp({ limits: { maxResultBytes: 100_000 } }, [CostTools]);
    expect(await t.callTool('big', { bytes: 200_000 })).toEqual({
      content: [{ type: 'text', text: 'Tool big produced a result larger than 100000 bytes' }],
      isError: true,
    });
    const fine = await t.callTool('big', { bytes: 50_000 });
    expect(fine.content[0].text).toHaveLength(50_000);
  });

  it('an ask prompt built from huge arguments reaches the client cut to maxPromptChars', async () => {
    t = await createMcpApp(
      {
        limits: { maxPromptChars: 50 },
        authorizer: (_name, args) => ({ kind: 'ask', prompt: `Run with ${JSON.stringify(args)}?` }),
        authorizerSource: 'configured',
      },
      [CostTools],
    );
    const out = listen(t.server, 'a');
    await t.initialize('a', { elicitation: {} });
    const elicited = out.next((m) => m.method === 'elicitation/create');
    void t.server.handleMessage(
      {
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: { name: 'any', arguments: { blob: 'y'.repeat(10_000) } },
      },
      'a',
    );
    const asked = await elicited;
    expect(asked.params.message).toHaveLength(50);
    expect(asked.params.message.endsWith('…')).toBe(true);
    out.subscription.unsubscribe();
  });
});
