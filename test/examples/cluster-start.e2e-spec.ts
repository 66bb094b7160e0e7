import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamText } from '../support/stdio-child.js';
import { describeWithService, findService, TEST_REDIS_URL } from '../support/services.js';
import { deleteKeys, uniquePrefix } from '../cluster/cluster-support.js';

/*
 * examples/cluster/start.mjs: three notes-service instances (dist/app/main.js,
 * REDIS_URL set) behind its round-robin proxy. The SDK client's session is
 * served by all three, and SIGTERM stops everything.
 */

describeWithService(await findService(TEST_REDIS_URL), 'examples/cluster/start.mjs', (redisUrl) => {
  it('serves one session through the proxy from three service instances', async () => {
    const prefix = uniquePrefix();
    const example = spawn(process.execPath, [resolve('examples/cluster/start.mjs')], {
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        PORT: '0',
        REDIS_URL: redisUrl,
        REDIS_KEY_PREFIX: prefix,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((done) => example.once('exit', (code) => done(code)));
    const stdout = new StreamText(example.stdout!);
    const stderr = new StreamText(example.stderr!);
    try {
      await Promise.race([
        stdout.waitFor((text) => text.includes('/mcp\n')),
        exited.then((code) => {
          throw new Error(`example exited (${code}): ${stderr.text}`);
        }),
      ]);
      expect(stderr.text).toMatch(/instances: (http:\/\/127\.0\.0\.1:\d+(, )?){3}/);
      const client = new Client({ name: 'cluster-example', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(stdout.text.trim())));
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('search_notes');
      for (let i = 0; i < 4; i++) {
        const result = await client.callTool({ name: 'search_notes', arguments: { query: 'x' } });
        expect(result.isError).toBeFalsy();
      }
      await client.close();
    } finally {
      example.kill('SIGTERM');
      expect(await exited).toBe(0);
      await deleteKeys(redisUrl, prefix);
    }
  });
});
