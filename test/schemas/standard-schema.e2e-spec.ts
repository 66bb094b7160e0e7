import { Injectable, type INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { PassThrough } from 'node:stream';
import { z as z3 } from 'zod/v3';
import {
  Authorizers,
  McpModule,
  McpRegistry,
  McpStdioTransport,
  McpTool,
  McpWarden,
  type McpStandardSchema,
} from '../../src/index.js';
import { McpTestClient } from '../../src/testing/index.js';
import { bootOutcome } from '../support/boot-outcome.js';
import { createHttpApp, type HttpTestApp } from '../support/http-app.js';
import { StandardSchemaTools, zodOrder } from './standard-schema-tools.js';

const open = { authorizer: Authorizers.allowAll(), readAuthorizer: Authorizers.allowAll() };

/** What every transport is driven through: the official SDK client, or the testing client. */
interface Caller {
  listTools(): Promise<{ tools: { name: string; inputSchema: any; outputSchema?: any }[] }>;
  callTool(name: string, args?: object): Promise<any>;
  listPrompts(): Promise<{ prompts: { name: string; arguments?: object[] }[] }>;
  getPrompt(name: string, args: Record<string, string>): Promise<any>;
  close(): Promise<void>;
}

/* The SDK client over a pipe into McpStdioTransport: the stdio wire format, in process. */
class PipeTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly buffer = new ReadBuffer();

  constructor(
    private readonly toServer: PassThrough,
    fromServer: PassThrough,
  ) {
    fromServer.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let message = this.buffer.readMessage(); message; message = this.buffer.readMessage())
        this.onmessage?.(message);
    });
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.toServer.end();
    this.onclose?.();
  }
}

function sdkCaller(client: Client, after: () => Promise<void>): Caller {
  return {
    listTools: () => client.listTools() as Promise<any>,
    callTool: (name, args) => client.callTool({ name, arguments: args as any }),
    listPrompts: () => client.listPrompts() as Promise<any>,
    getPrompt: (name, args) => client.getPrompt({ name, arguments: args }),
    close: async () => {
      await client.close();
      await after();
    },
  };
}

async function inProcess(): Promise<Caller> {
  const moduleRef = await Test.createTestingModule({
    imports: [McpModule.forRoot({ name: 'standard', version: '1', ...open })],
    providers: [StandardSchemaTools],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  const client = await McpTestClient.connect(app);
  return {
    listTools: () => client.listTools().then((tools) => ({ tools })) as Promise<any>,
    callTool: (name, args) => client.callTool(name, args as Record<string, unknown>),
    listPrompts: () => client.listPrompts().then((prompts) => ({ prompts })) as Promise<any>,
    getPrompt: (name, args) => client.getPrompt(name, args),
    close: async () => {
      await client.close();
      await app.close();
    },
  };
}

async function overHttp(): Promise<Caller> {
  const t: HttpTestApp = await createHttpApp(open, [StandardSchemaTools]);
  const client = new Client({ name: 'standard-http', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(t.url)));
  return sdkCaller(client, () => t.close());
}

async function overStdio(): Promise<Caller> {
  const moduleRef = await Test.createTestingModule({
    imports: [McpModule.forRoot({ name: 'standard', version: '1', transport: 'stdio', ...open })],
    providers: [StandardSchemaTools],
  }).compile();
  const app: INestApplicationContext = moduleRef.createNestApplication({ logger: false });
  await app.init();
  const [input, output] = [new PassThrough(), new PassThrough()];
  const running = new McpStdioTransport(app.get(McpWarden), { input, output }).run();
  const client = new Client({ name: 'standard-stdio', version: '1' });
  await client.connect(new PipeTransport(input, output));
  return sdkCaller(client, async () => {
    await running;
    await app.close();
  });
}

const TRANSPORTS: [string, () => Promise<Caller>][] = [
  ['in process (McpTestClient)', inProcess],
  ['Streamable HTTP (SDK client)', overHttp],
  ['stdio (SDK client)', overStdio],
];
const LIBRARIES = ['zod', 'valibot', 'arktype'] as const;

const ORDER = {
  customer: { name: 'Ada', email: 'ada@example.com' },
  items: [{ sku: 'a-1', qty: 2 }],
  code: 'abc',
  total: 10,
};

const textOf = (result: any): string => result.content?.[0]?.text ?? '';

describe.each(TRANSPORTS)('Standard Schema tools, %s', (_, connect) => {
  let caller: Caller;
  beforeAll(async () => {
    caller = await connect();
  });
  afterAll(() => caller?.close());

  describe.each(LIBRARIES)('%s', (library) => {
    const tool = `order_${library}`;

    it('lists the schema it describes itself as: nested object, array, optional, default', async () => {
      const { tools } = await caller.listTools();
      const { inputSchema } = tools.find((listed) => listed.name === tool)!;
      expect(inputSchema.type).toBe('object');
      expect(inputSchema.properties.customer).toMatchObject({
        type: 'object',
        properties: { name: { type: 'string' }, email: { type: 'string' } },
      });
      expect(inputSchema.properties.items).toMatchObject({ type: 'array' });
      expect(inputSchema.properties.note).toMatchObject({ type: 'string' });
      expect(inputSchema.required).toEqual(expect.arrayContaining(['customer', 'items', 'total']));
      expect(inputSchema.required).not.toContain('note');
      expect(inputSchema.required).not.toContain('priority');
    });

    // ArkType's JSON Schema leaves defaults out (its validator still applies them, below).
    if (library !== 'arktype') {
      it('lists the default', async () => {
        const { tools } = await caller.listTools();
        const { inputSchema } = tools.find((listed) => listed.name === tool)!;
        expect(inputSchema.properties.priority.default).toBe('low');
      });
    }

    it('hands the handler what the validator made: the default applied, the transform run', async () => {
      const result = await caller.callTool(tool, ORDER);
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({
        received: { ...ORDER, code: 'ABC', priority: 'low' },
      });
    });

    it('keeps an optional field when it is given', async () => {
      const result = await caller.callTool(tool, { ...ORDER, note: 'ring twice' });
      expect(result.structuredContent.received.note).toBe('ring twice');
    });

    it('a failed refinement is an isError result, the field path first', async () => {
      const result = await caller.callTool(tool, { ...ORDER, total: 7 });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(new RegExp(`^Invalid arguments for tool ${tool}: total: .*5`));
    });

    it('names nested and array paths, one line per issue', async () => {
      const result = await caller.callTool(tool, {
        ...ORDER,
        customer: { name: 'Ada', email: 'not an email' },
        items: [{ sku: 'a-1', qty: 0 }],
      });
      expect(result.isError).toBe(true);
      const lines = textOf(result).split('\n');
      expect(lines.some((line) => /(^|: )customer\.email: /.test(line))).toBe(true);
      expect(lines.some((line) => /(^|: )items\.0\.qty: /.test(line))).toBe(true);
      expect(lines).toHaveLength(2);
    });

    it('a missing field is named', async () => {
      const { customer: _, ...withoutCustomer } = ORDER;
      const result = await caller.callTool(tool, withoutCustomer);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/customer: /);
    });

    it('a result that matches its output schema is sent, one that does not is an isError result', async () => {
      const good = await caller.callTool(`receipt_${library}`);
      expect(good.structuredContent).toEqual({ accepted: true, id: 'r-1' });
      const { tools } = await caller.listTools();
      expect(
        tools.find((listed) => listed.name === `receipt_${library}`)!.outputSchema,
      ).toMatchObject({
        type: 'object',
        properties: { accepted: { type: 'boolean' }, id: { type: 'string' } },
      });
      const broken = await caller.callTool(`broken_${library}`);
      expect(broken.isError).toBe(true);
      expect(textOf(broken)).toBe(`Tool broken_${library} produced invalid output`);
    });
  });

  describe('a prompt with a zod argsSchema', () => {
    it('lists its arguments from the schema', async () => {
      const { prompts } = await caller.listPrompts();
      expect(prompts.find((prompt) => prompt.name === 'greet')!.arguments).toEqual([
        { name: 'name', description: 'Who to greet', required: true },
        { name: 'tone', required: false },
      ]);
    });

    it('hands the handler the validated arguments, and refuses bad ones with -32602', async () => {
      const result = await caller.getPrompt('greet', { name: '  Bo ', tone: 'warm' });
      expect(result.messages[0].content.text).toBe('Say hello to Bo (warm)');
      await expect(caller.getPrompt('greet', { name: 'Bo', tone: 'loud' })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(/Invalid arguments for prompt greet: tone: /),
      });
    });
  });
});

describe('Standard Schema validators that cannot be listed', () => {
  async function bootWith(schema: unknown): Promise<Error | undefined> {
    @Injectable()
    class Unlisted {
      @McpTool({ description: 'Takes an unlistable schema', inputSchema: schema as never })
      unlisted() {
        return 'ran';
      }
    }
    const moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRoot({ name: 'unlisted', version: '1', ...open })],
      providers: [Unlisted],
    }).compile();
    return bootOutcome(moduleRef.createNestApplication({ logger: false }));
  }

  it('a vendor with no JSON Schema fails boot, naming the tool and what to do', async () => {
    const acme: McpStandardSchema = {
      '~standard': { version: 1, vendor: 'acme', validate: (value) => ({ value }) },
    };
    const failure = await bootWith(acme);
    expect(failure?.name).toBe('McpDefinitionError');
    expect(failure?.message).toMatch(/Unlisted\.unlisted/);
    expect(failure?.message).toMatch(/acme schema cannot describe itself as JSON Schema/);
    expect(failure?.message).toMatch(/give a JSON Schema object or a DTO class instead/);
  });

  it('a zod 3 schema fails boot and says to use zod 4', async () => {
    const failure = await bootWith(z3.object({ a: z3.string() }));
    expect(failure?.message).toMatch(/Unlisted\.unlisted.*zod 3 schema.*use zod 4/);
  });

  it('a schema that does not describe an object fails boot', async () => {
    const failure = await bootWith(zodOrder.shape.code);
    expect(failure?.message).toMatch(/must describe an object/);
  });
});

describe('runtime registration of a zod tool', () => {
  it('registers, serves with the validator, and unregisters', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRoot({ name: 'runtime', version: '1', ...open })],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    const client = await McpTestClient.connect(app);
    try {
      const registry = app.get(McpRegistry);
      registry.registerTool({
        name: 'double',
        description: 'Doubles n',
        inputSchema: zodOrder.pick({ total: true }),
        handler: (args) => ({ doubled: (args as { total: number }).total * 2 }),
      });
      expect((await client.callTool('double', { total: 15 })).structuredContent).toEqual({
        doubled: 30,
      });
      expect((await client.callTool('double', { total: 3 })).isError).toBe(true);
      expect(registry.unregisterTool('double')).toBe(true);
      expect((await client.listTools()).map((tool) => tool.name)).not.toContain('double');
    } finally {
      await client.close();
      await app.close();
    }
  });
});
