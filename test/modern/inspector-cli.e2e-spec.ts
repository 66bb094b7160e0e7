import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HttpTestApp } from '../support/http-app.js';
import { describeWithRuntimes, findRuntimes } from '../support/runtimes.js';
import { bootModernApp, MODERN, README_URI, resetFixture, SERVER_INFO_KEY } from './modern-app.js';

/*
 * The MCP Inspector CLI (2.x, on Node 22) with `--protocol-era modern`
 * against the fixture over Streamable HTTP: every request it sends is a
 * stateless 2026-07-28 POST, and it lists, calls, reads and gets what the
 * fixture serves.
 */

const runtimes = await findRuntimes(['node22', 'inspectorCli']);

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** What the server saw of one HTTP request to the MCP endpoint. */
interface Seen {
  method?: string;
  version?: string;
  mcpMethod?: string;
  session?: string;
}

describeWithRuntimes(runtimes, 'MCP Inspector CLI 2.x, --protocol-era modern', (paths) => {
  let t: HttpTestApp;
  let home: string;
  const seen: Seen[] = [];

  /* Runs the CLI to completion (asynchronously: the server answers it from this process). */
  function inspector(...args: string[]): Promise<CliRun> {
    const argv = [paths.inspectorCli, t.url, ...args, '--protocol-era', 'modern'];
    return new Promise((resolve) => {
      execFile(
        paths.node22,
        [...argv, '--format', 'json'],
        { env: { PATH: process.env.PATH ?? '', HOME: home }, timeout: 45_000 },
        (error, stdout, stderr) => {
          const code = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
    });
  }

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'mcp-warden-inspector-'));
    t = await bootModernApp('express');
    (t.app.getHttpServer() as Server).on('request', (req: IncomingMessage) => {
      if (!req.url?.startsWith('/mcp')) return;
      const header = (name: string) => req.headers[name] as string | undefined;
      seen.push({
        method: req.method,
        version: header('mcp-protocol-version'),
        mcpMethod: header('mcp-method'),
        session: header('mcp-session-id'),
      });
    });
  });
  afterAll(async () => {
    await t?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });
  beforeEach(() => {
    resetFixture();
    seen.length = 0;
  });

  /* Every request was a modern POST (no session, no handshake), and these methods were among them. */
  function expectModernTraffic(...methods: string[]) {
    expect(seen.length).toBeGreaterThan(0);
    for (const request of seen) {
      expect(request).toEqual({ method: 'POST', version: MODERN, mcpMethod: expect.any(String) });
    }
    const sent = seen.map((request) => request.mcpMethod);
    expect(sent).not.toContain('initialize');
    expect(sent).toEqual(expect.arrayContaining(methods));
  }

  it('tools/list lists every tool, over stateless modern POSTs only', async () => {
    const run = await inspector('--method', 'tools/list');
    expect(run.code).toBe(0);
    const { result } = JSON.parse(run.stdout);
    expect(result.tools.map((tool: { name: string }) => tool.name)).toEqual([
      'echo',
      'purge',
      'wipe',
      'greet',
      'survey',
      'draft',
      'roots',
      'chatty',
      'progressive',
      'hold',
      'route',
    ]);
    expect(result.tools[0]).toEqual({
      name: 'echo',
      description: 'Echo text',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    });
    expectModernTraffic('tools/list');
  });

  it('tools/call with --tool-arg runs the tool and prints its result', async () => {
    const run = await inspector(
      '--method',
      'tools/call',
      '--tool-name',
      'echo',
      '--tool-arg',
      'text=hi',
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      result: {
        _meta: { [SERVER_INFO_KEY]: { name: 'http-test', version: '1.0.0' } },
        content: [{ type: 'text', text: 'echo: hi' }],
      },
    });
    expectModernTraffic('tools/call');
  });

  it('tools/call of an x-mcp-header tool: the CLI mirrors the arguments and the server accepts them', async () => {
    const run = await inspector(
      '--method',
      'tools/call',
      '--tool-name',
      'route',
      '--tool-arg',
      'region=eu',
      'count=3',
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).result.content).toEqual([{ type: 'text', text: 'region eu x3' }]);
    expectModernTraffic('tools/call');
  });

  it('tools/call of a tool that asks, from a client without elicitation: the cannot-be-asked deny (exit 5)', async () => {
    const run = await inspector('--method', 'tools/call', '--tool-name', 'purge');
    expect(run.code).toBe(5);
    const detail = {
      error: 'authorization_required',
      tool: 'purge',
      decision: 'ask',
      detail: 'Purge everything?',
    };
    expect(JSON.parse(run.stdout).result).toEqual({
      _meta: { [SERVER_INFO_KEY]: { name: 'http-test', version: '1.0.0' } },
      content: [{ type: 'text', text: JSON.stringify(detail) }],
      structuredContent: detail,
      isError: true,
    });
    expect(JSON.parse(run.stderr)).toEqual({
      error: { code: 'tool_is_error', message: "Tool 'purge' returned isError:true." },
    });
  });

  it('resources/read returns the contents with the cache hint', async () => {
    const run = await inspector('--method', 'resources/read', '--uri', README_URI);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      result: {
        _meta: { [SERVER_INFO_KEY]: { name: 'http-test', version: '1.0.0' } },
        contents: [{ uri: README_URI, mimeType: 'text/plain', text: 'read me' }],
        ttlMs: 0,
        cacheScope: 'private',
      },
    });
    expectModernTraffic('resources/read');
  });

  it('prompts/get with --prompt-args renders the prompt', async () => {
    const run = await inspector(
      '--method',
      'prompts/get',
      '--prompt-name',
      'summary',
      '--prompt-args',
      'topic=x',
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      result: {
        _meta: { [SERVER_INFO_KEY]: { name: 'http-test', version: '1.0.0' } },
        description: 'Summarise a topic',
        messages: [{ role: 'user', content: { type: 'text', text: 'Summarise x' } }],
      },
    });
    expectModernTraffic('prompts/get');
  });
});
