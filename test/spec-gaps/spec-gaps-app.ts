import { Injectable } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import {
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpTool,
  McpUrlElicitationRequiredError,
  McpUrlElicitations,
  type McpIcon,
  type McpModuleOptions,
  type McpToolContext,
} from '../../src/index.js';
import type { HttpTestApp } from '../support/http-app.js';

/*
 * The fixture of the 2025-11-25 gap suites: definitions carrying every
 * display field, tools that elicit (form and URL), sample with tools and
 * throw -32042, and the "connect page" an app would serve behind a URL
 * elicitation. Clients are the official SDK client over Streamable HTTP,
 * authenticated by an `x-user` header so every connection has a principal.
 */

export const ICON: McpIcon = {
  src: 'https://example.com/icon.png',
  mimeType: 'image/png',
  sizes: ['48x48'],
  theme: 'light',
};
export const SVG_ICON: McpIcon = { src: 'data:image/svg+xml;base64,PHN2Zy8+', sizes: ['any'] };

export const CONTACT_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1 },
    email: { type: 'string', format: 'email' },
    age: { type: 'integer', minimum: 18 },
  },
  required: ['name', 'email'],
};

/** The id a calendar elicitation of `subject` is sent under (stable, so a test can look it up). */
export const calendarElicitationId = (subject: string) => `calendar-${subject}`;
export const connectUrl = (id: string) => `https://app.example/connect?id=${id}`;

/** Who connected a calendar: what the app stores once the user finished on its page. */
@Injectable()
export class CalendarStore {
  readonly connected = new Set<string>();
}

/**
 * What an app's page behind the URL does when the user is done: check the
 * browser's user is the one the elicitation was sent for, store, complete.
 */
@Injectable()
export class ConnectPage {
  constructor(
    private readonly elicitations: McpUrlElicitations,
    private readonly store: CalendarStore,
  ) {}

  finish(elicitationId: string, browserUser: string): 'completed' | 'forbidden' | 'unknown' {
    const pending = this.elicitations.find(elicitationId);
    if (!pending) return 'unknown';
    if (pending.principal?.subject !== browserUser) return 'forbidden';
    this.store.connected.add(browserUser);
    return this.elicitations.complete(elicitationId) ? 'completed' : 'unknown';
  }
}

@Injectable()
export class GapsTools {
  constructor(private readonly store: CalendarStore) {}

  @McpTool({
    description: 'Tell the weather',
    title: 'Weather',
    icons: [ICON, SVG_ICON],
    _meta: { 'com.example/owner': 'team-weather', cost: 1 },
    annotations: { readOnlyHint: true },
  })
  weather() {
    return 'sunny';
  }

  @McpTool({ description: 'Ask the user for a contact' })
  async contact(_args: object, ctx: McpToolContext) {
    const answer = await ctx.elicit('Who should we write to?', CONTACT_SCHEMA);
    return answer.action === 'accept'
      ? { contact: answer.content }
      : `no contact (${answer.action})`;
  }

  @McpTool({ description: 'Send the user to the calendar connect page' })
  async connect_calendar(_args: object, ctx: McpToolContext) {
    const answer = await ctx.elicitUrl('Connect your calendar', connectUrl);
    return { action: answer.action, elicitationId: answer.elicitationId };
  }

  @McpTool({ description: 'Read the calendar; the user must connect it first' })
  calendar(_args: object, ctx: McpToolContext) {
    const subject = ctx.principal?.subject ?? 'anonymous';
    if (this.store.connected.has(subject)) return 'three meetings today';
    const elicitationId = calendarElicitationId(subject);
    throw new McpUrlElicitationRequiredError([
      { elicitationId, url: connectUrl(elicitationId), message: 'Connect your calendar first' },
    ]);
  }

  @McpTool({ description: 'Let the client model plan with a search tool' })
  async plan(_args: object, ctx: McpToolContext) {
    const result = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'Find the Q3 plan' } }],
      maxTokens: 50,
      tools: [{ name: 'search', inputSchema: { type: 'object', properties: {} } }],
      toolChoice: { mode: 'auto' },
    });
    // Not `content`: an object with a content array would be taken for a whole CallToolResult.
    return { stopReason: result.stopReason, blocks: result.content };
  }

  @McpTool({ description: 'Tell which connection is calling' })
  conn(_args: object, ctx: McpToolContext) {
    return ctx.connId;
  }
}

@Injectable()
export class GapsResources {
  @McpResource({
    uri: 'docs://handbook',
    name: 'handbook',
    title: 'Team handbook',
    mimeType: 'text/markdown',
    icons: [ICON],
    _meta: { 'com.example/source': 'wiki' },
    annotations: {
      audience: ['user', 'assistant'],
      priority: 0.8,
      lastModified: '2025-11-25T10:00:00Z',
    },
    size: 15,
  })
  handbook() {
    return '# The handbook';
  }

  @McpResourceTemplate({
    uriTemplate: 'docs://pages/{page}',
    name: 'page',
    title: 'Handbook page',
    icons: [SVG_ICON],
    _meta: { 'com.example/source': 'wiki' },
    annotations: { audience: ['assistant'], priority: 0.2 },
  })
  page(_uri: string, { page }: Record<string, string>) {
    return `page ${page}`;
  }
}

@Injectable()
export class PrivateResources {
  /** A resource that needs the user on a page first, like the calendar tool. */
  @McpResource({ uri: 'docs://private', name: 'private' })
  private_doc(): string {
    throw new McpUrlElicitationRequiredError([
      { elicitationId: 'private-doc', url: connectUrl('private-doc'), message: 'Sign in first' },
    ]);
  }
}

@Injectable()
export class GapsPrompts {
  @McpPrompt({
    description: 'Plan the week',
    title: 'Weekly plan',
    icons: [ICON],
    _meta: { 'com.example/category': 'planning' },
  })
  weekly() {
    return [{ role: 'user' as const, content: { type: 'text' as const, text: 'Plan my week.' } }];
  }
}

export const GAPS_PROVIDERS = [
  CalendarStore,
  ConnectPage,
  GapsTools,
  GapsResources,
  PrivateResources,
  GapsPrompts,
];

/** Module options of the fixture: serverInfo display fields, and a principal from `x-user`. */
export const GAPS_OPTIONS: Partial<McpModuleOptions> = {
  title: 'Spec gaps server',
  description: 'Serves every 2025-11-25 display field',
  icons: [ICON],
  websiteUrl: 'https://example.com/gaps',
  http: {
    authenticate: (request) => {
      const user = request.headers['x-user'];
      return typeof user === 'string' ? { subject: user, scopes: [] } : undefined;
    },
  },
};

/** An SDK client of `t` for `user`, declaring `capabilities`; connect it after adding handlers. */
export function sdkClient(capabilities: ClientCapabilities): Client {
  return new Client({ name: 'jest-gaps', version: '1.0.0' }, { capabilities });
}

/** Connects `client` to `t` as `user` over Streamable HTTP. */
export async function connectAs(client: Client, t: HttpTestApp, user: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(t.url), {
    requestInit: { headers: { 'x-user': user } },
  });
  await client.connect(transport);
  return client;
}
