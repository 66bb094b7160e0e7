import { Injectable } from '@nestjs/common';
import { McpTool, type Authorizer } from '../../src/index.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';

/* A hung policy costs each caller one timeout per window, never one per request; it stays closed. */

@Injectable()
class ListedTools {
  @McpTool({ description: 'One', input: { type: 'object' } })
  one() {
    return 'one';
  }

  @McpTool({ description: 'Two', input: { type: 'object' } })
  two() {
    return 'two';
  }
}

describe('a hung authorizer', () => {
  let t: McpTestApp;
  afterEach(() => t?.close());

  it('a read authorizer that never answers: the first tools/list waits out authorizerTimeoutMs and denies, the next ones deny at once without asking it again', async () => {
    let asked = 0;
    const hung: Authorizer = () => {
      asked++;
      return new Promise(() => undefined);
    };
    // The window is the timeout: a short one keeps the first wait short.
    t = await createMcpApp({ readAuthorizer: hung, limits: { authorizerTimeoutMs: 50 } }, [
      ListedTools,
    ]);
    asked = 0;
    const first = await t.request('tools/list', {}, 'a');
    expect(first.error).toMatchObject({
      code: -31403,
      data: { detail: 'authorizer_timeout' },
    });
    const second = await t.request('tools/list', {}, 'a');
    expect(second.error).toMatchObject({ code: -31403, data: { detail: 'authorizer_timeout' } });
    expect(asked).toBe(1);
    // Another caller is asked for itself.
    await t.request('tools/list', {}, 'b');
    expect(asked).toBe(2);
  });

  it('tool visibility is decided for every tool at once: a hung tool authorizer is asked for each tool in one round, and hides them all', async () => {
    const pending: string[] = [];
    const hung: Authorizer = (name) => {
      pending.push(name);
      return new Promise(() => undefined);
    };
    t = await createMcpApp(
      { authorizer: hung, authorizerSource: 'configured', limits: { authorizerTimeoutMs: 50 } },
      [ListedTools],
    );
    const listing = t.result('tools/list', {}, 'a');
    // Both decisions are asked before either could have timed out: concurrently.
    expect(pending.sort()).toEqual(['one', 'two']);
    expect(await listing).toEqual({ tools: [] });
  });
});
