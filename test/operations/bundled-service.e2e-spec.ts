import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HttpServiceChild, MAIN_HTTP } from '../support/http-service.js';
import {
  AS_BUILT_STDIO,
  MAIN_STDIO,
  StdioScript,
  makeDataDir,
  removeDataDir,
} from '../support/stdio-child.js';

/*
 * The service as it ships for a fast start (`dist/bundle/`, built by `npm run build`): one file
 * per entry point, its launcher, and the DTO packages beside it. It must be the same service as
 * tsc's output: the same tools with the same DTO-derived schemas, DTO validation through the
 * stand-in class-validator packages, and over HTTP its health, readiness and metrics routes.
 */

let dir: string | undefined;
const children: { dispose(): Promise<void> }[] = [];

beforeEach(async () => {
  dir = await makeDataDir();
});

afterEach(async () => {
  for (const child of children.splice(0)) await child.dispose();
  await removeDataDir(dir);
});

function stdio(entry: string): StdioScript {
  const child = new StdioScript(entry, { DATA_DIR: dir!, NODE_ENV: 'production' });
  children.push(child);
  return child;
}

const resultOf = (message: { result?: unknown }) => message.result as Record<string, unknown>;

describe('the bundled service', () => {
  it('over stdio lists the same tools, with the same schemas, as the service tsc built', async () => {
    const bundled = stdio(MAIN_STDIO);
    const built = stdio(AS_BUILT_STDIO);
    await Promise.all([bundled.initialize(), built.initialize()]);
    const [fromBundle, fromBuild] = await Promise.all([
      bundled.request('tools/list'),
      built.request('tools/list'),
    ]);
    expect(resultOf(fromBundle).tools).toEqual(resultOf(fromBuild).tools);
    const names = (resultOf(fromBundle).tools as { name: string }[]).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['create_note', 'search_notes', 'delete_note']));
  });

  it('over stdio validates a DTO tool through the stand-in packages, then runs it', async () => {
    const child = stdio(MAIN_STDIO);
    await child.initialize();
    const refused = await child.request('tools/call', {
      name: 'create_note',
      arguments: { title: 42, body: 'b' },
    });
    expect(resultOf(refused)).toMatchObject({ isError: true });
    expect(JSON.stringify(resultOf(refused).content)).toMatch(
      /Invalid arguments for tool create_note: .*title/,
    );
    const created = await child.request('tools/call', {
      name: 'create_note',
      arguments: { title: 'Bundled', body: 'one file' },
    });
    expect(resultOf(created).isError).toBeFalsy();
    const found = await child.request('tools/call', {
      name: 'search_notes',
      arguments: { query: 'Bundled' },
    });
    expect(JSON.stringify(resultOf(found).content)).toContain('Bundled');
  });

  it('over HTTP serves MCP to the official client, and /health, /ready and /metrics', async () => {
    const child = new HttpServiceChild(dir!, { NODE_ENV: 'production' }, MAIN_HTTP);
    children.push(child);
    const url = await child.url;
    const client = new Client({ name: 'jest-bundled', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      const result = await client.callTool({ name: 'search_notes', arguments: { query: 'x' } });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    expect((await fetch(new URL('/health', url))).status).toBe(200);
    expect((await fetch(new URL('/ready', url))).status).toBe(200);
    const metrics = await fetch(new URL('/metrics', url));
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^mcp_server_operation_duration_count\{/m);
  });
});
