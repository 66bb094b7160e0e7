import {
  BadRequestException,
  Injectable,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { IncomingMessage } from 'node:http';
import { McpTool, type McpToolContext } from '../../src/index.js';
import { McpExecutionContext } from '../../src/mcp/definitions/pipeline/mcp-execution-context.js';
import { ADAPTERS, createHttpApp, type HttpTestApp } from '../support/http-app.js';
import { createEnhancersApp, type EnhancersApp } from './enhancers-app.js';

/*
 * Guards on tool methods see the call's HTTP request through
 * `switchToHttp().getRequest()`, and `McpExecutionContext` exposes the
 * arguments, the MCP context and the principal.
 */

const TEXT_INPUT = { type: 'object', properties: { text: { type: 'string' } } };
const seen: Record<string, unknown>[] = [];

/** An HTTP API's bearer guard, applied app-wide. */
@Injectable()
class BearerGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<IncomingMessage>();
    return request.headers.authorization === 'Bearer good';
  }
}

/** Records what a tool guard can see of the call. */
class InspectingGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const mcp = McpExecutionContext.create(context);
    seen.push({
      type: mcp.getType(),
      tenant: context.switchToHttp().getRequest<IncomingMessage | undefined>()?.headers['x-tenant'],
      args: mcp.getArgs()[0],
      sameContext: mcp.getContext() === context.getArgByIndex(1),
      transport: mcp.getContext<McpToolContext>().transport,
      principal: mcp.getPrincipal()?.subject,
      hasHttpRequest: mcp.getHttpRequest() !== undefined,
      handler: mcp.getHandler().name,
      classRef: mcp.getClass().name,
    });
    return true;
  }
}

@Injectable()
class HttpTools {
  @McpTool({ description: 'Echo the text back', input: TEXT_INPUT })
  @UseGuards(InspectingGuard)
  echo({ text }: { text?: string }) {
    return `echo: ${text}`;
  }

  @McpTool({ description: 'Refuses with a message for the caller', input: TEXT_INPUT })
  reject() {
    throw new BadRequestException('title is too long');
  }
}

async function connect(t: HttpTestApp, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'jest-enhancers', version: '1.0.0' });
  const url = new URL(t.url);
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

describe.each(ADAPTERS)(
  'the HTTP request in tool guards (SDK client over Streamable HTTP) on %s',
  (adapter) => {
    let t: HttpTestApp;
    const clients: Client[] = [];

    beforeAll(async () => {
      t = await createHttpApp(
        {},
        [HttpTools, { provide: APP_GUARD, useClass: BearerGuard }],
        adapter,
      );
    });

    afterAll(async () => {
      for (const client of clients) await client.close();
      await t?.close();
    });

    beforeEach(() => {
      seen.length = 0;
    });

    it('an HTTP bearer APP_GUARD passes the protocol through and guards tools by header', async () => {
      const anonymous = await connect(t, {});
      clients.push(anonymous);
      expect(anonymous.getServerVersion()).toEqual({ name: 'http-test', version: '1.0.0' });
      const { tools } = await anonymous.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['echo', 'reject']);
      const denied = await anonymous.callTool({ name: 'echo', arguments: { text: 'hi' } });
      expect(denied.isError).toBe(true);
      expect(denied.structuredContent).toMatchObject({ decision: 'deny', detail: 'forbidden' });

      const bearer = await connect(t, { authorization: 'Bearer good' });
      clients.push(bearer);
      const allowed = await bearer.callTool({ name: 'echo', arguments: { text: 'hi' } });
      expect(allowed.content).toEqual([{ type: 'text', text: 'echo: hi' }]);
    });

    it("a tool guard's switchToHttp().getRequest() sees the call's HTTP headers", async () => {
      const client = await connect(t, { authorization: 'Bearer good', 'x-tenant': 'acme' });
      clients.push(client);
      await client.callTool({ name: 'echo', arguments: { text: 'tenant' } });
      expect(seen).toEqual([
        {
          type: 'mcp',
          tenant: 'acme',
          args: { text: 'tenant' },
          sameContext: true,
          transport: 'http',
          principal: undefined,
          hasHttpRequest: true,
          handler: 'echo',
          classRef: 'HttpTools',
        },
      ]);
    });

    it("an HttpException's message reaches the SDK client as isError text", async () => {
      const client = await connect(t, { authorization: 'Bearer good' });
      clients.push(client);
      const result = await client.callTool({ name: 'reject', arguments: {} });
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([{ type: 'text', text: 'title is too long' }]);
    });
  },
);

describe('McpExecutionContext in process', () => {
  let t: EnhancersApp;

  beforeAll(async () => {
    t = await createEnhancersApp([HttpTools]);
  });

  afterAll(() => t.close());

  it('exposes the arguments, the MCP context and the principal; no HTTP request', async () => {
    seen.length = 0;
    const principal = { subject: 'alice', scopes: ['notes:read'] };
    await t.callTool('echo', { text: 'x' }, { transport: 'stdio', principal });
    expect(seen).toEqual([
      expect.objectContaining({
        type: 'mcp',
        tenant: undefined,
        args: { text: 'x' },
        sameContext: true,
        transport: 'stdio',
        principal: 'alice',
        hasHttpRequest: false,
      }),
    ]);
  });
});
