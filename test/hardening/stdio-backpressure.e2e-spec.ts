import { Injectable } from '@nestjs/common';
import { PassThrough } from 'node:stream';
import { McpStdioTransport, McpTool } from '../../src/index.js';
import { deferred } from '../support/deferred.js';
import { JsonLines } from '../support/json-lines.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';

/* A client pipelining past the in-flight bound is slowed down, never refused. */

const SLOTS = 4;
const PIPELINED = 600;

@Injectable()
class GateTools {
  gate = deferred();
  running = 0;
  peak = 0;

  @McpTool({ description: 'Waits for the gate', input: { type: 'object' } })
  async gated() {
    this.running++;
    this.peak = Math.max(this.peak, this.running);
    await this.gate.promise;
    this.running--;
    return 'through';
  }
}

describe('stdio backpressure', () => {
  let app: McpTestApp;
  afterEach(() => app?.close());

  it(`${PIPELINED} pipelined calls with ${SLOTS} in-flight slots: every one is answered with its result, none refused with -31429, never more than ${SLOTS} at once`, async () => {
    app = await createMcpApp({ transport: 'stdio', limits: { maxInFlightPerConnection: SLOTS } }, [
      GateTools,
    ]);
    const tools = app.app.get(GateTools);
    const input = new PassThrough();
    const output = new JsonLines();
    const transport = new McpStdioTransport(app.server, { input, output, maxInFlight: SLOTS });
    const running = transport.run();
    const lines = Array.from({ length: PIPELINED }, (_, id) =>
      JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'gated' } }),
    );
    input.write(lines.join('\n') + '\n');
    tools.gate.resolve();
    await output.count(PIPELINED);
    expect(output.messages.map((m) => m.id).sort((a, b) => a - b)).toEqual(
      Array.from({ length: PIPELINED }, (_, id) => id),
    );
    expect(output.messages.filter((m) => m.error)).toEqual([]);
    expect(output.messages.every((m) => m.result.content[0].text === 'through')).toBe(true);
    expect(tools.peak).toBeLessThanOrEqual(SLOTS);
    input.end();
    await running;
  });
});
