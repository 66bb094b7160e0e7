import { Injectable } from '@nestjs/common';
import { McpTool, type McpToolContext } from '../../src/index.js';
import { ADAPTERS, createHttpApp, type HttpTestApp } from '../support/http-app.js';
import { SseReader } from '../support/http-sse.js';
import { HTTP_OPTIONS, callMsg } from '../faults/faults-app.js';

/* A burst of notifications in one turn is not a slow reader. */

const BURST = 3_000;

@Injectable()
class BurstTools {
  @McpTool({ description: 'Reports progress BURST times in one turn', input: { type: 'object' } })
  burst(_args: object, ctx: McpToolContext) {
    for (let step = 1; step <= BURST; step++)
      ctx.progress(step, BURST, `step ${step} of the burst`);
    return 'burst done';
  }
}

describe.each(ADAPTERS)('a progress burst on %s', (adapter) => {
  let t: HttpTestApp;
  afterEach(() => t?.close());

  it(`${BURST} progress notifications in one turn, past maxQueuedEvents, all reach a fast reader with the result`, async () => {
    // maxQueuedEvents is far below the burst: only a reader that stays behind may be dropped.
    t = await createHttpApp(
      { ...HTTP_OPTIONS, limits: { maxQueuedEvents: 32 } },
      [BurstTools],
      adapter,
    );
    const { sessionId } = await t.initialize();
    const call = callMsg(7, 'burst', {});
    (call.params as Record<string, unknown>)._meta = { progressToken: 'burst' };
    const stream = new SseReader(await t.post(call, { 'mcp-session-id': sessionId }));
    const result = await stream.waitForMessage((m) => m.id === 7);
    expect(result.result.content).toEqual([{ type: 'text', text: 'burst done' }]);
    const progress = stream.messages.filter((m) => m.method === 'notifications/progress');
    expect(progress).toHaveLength(BURST);
    expect(progress.map((m) => m.params.progress)).toEqual(
      Array.from({ length: BURST }, (_, index) => index + 1),
    );
    expect(await stream.ended).toEqual({});
  });
});
