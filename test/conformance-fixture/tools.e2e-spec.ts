import { inflateSync } from 'node:zlib';
import { relatedRequestOf } from '../../src/testing/index.js';
import { PNG_BASE64, WAV_BASE64 } from '../fixtures/conformance/conformance.media.js';
import {
  Msg,
  NO_INPUT,
  TOOL_DESCRIPTIONS,
  JSON_SCHEMA_2020_12,
  text,
  connect,
  callAndCatch,
  pngChunks,
  wavChunks,
  useConformanceApp,
} from './conformance-app.js';

useConformanceApp();

describe('conformance fixture: tools', () => {
  it('lists exactly the suite tools, each with its description and input schema', async () => {
    const c = await connect();
    const { tools } = await c.result('tools/list');
    const byName = Object.fromEntries(tools.map((tool: Msg) => [tool.name, tool]));
    expect(Object.keys(byName).sort()).toEqual(Object.keys(TOOL_DESCRIPTIONS).sort());
    expect(tools).toHaveLength(Object.keys(TOOL_DESCRIPTIONS).length);
    for (const tool of tools) {
      expect(tool.description).toBe(TOOL_DESCRIPTIONS[tool.name]);
      expect(tool.inputSchema.type).toBe('object');
    }
    expect(byName.test_sampling.inputSchema).toEqual({
      type: 'object',
      properties: {
        prompt: { type: 'string', description: 'The prompt to send to the client model' },
      },
      required: ['prompt'],
    });
    expect(byName.test_elicitation.inputSchema).toEqual({
      type: 'object',
      properties: { message: { type: 'string', description: 'The message to show the user' } },
      required: ['message'],
    });
    const withoutInput = Object.keys(TOOL_DESCRIPTIONS).filter(
      (name) =>
        ![
          'test_sampling',
          'test_elicitation',
          'json_schema_2020_12_tool',
          'test_header_region',
          'greet',
          'slow_compute',
          'confirm_delete',
        ].includes(name),
    );
    for (const name of withoutInput) expect(byName[name].inputSchema).toEqual(NO_INPUT);
  });

  it('lists json_schema_2020_12_tool with its 2020-12 input schema verbatim', async () => {
    const c = await connect();
    const { tools } = await c.result('tools/list');
    const tool = tools.find((t: Msg) => t.name === 'json_schema_2020_12_tool');
    expect(tool.inputSchema).toEqual(JSON_SCHEMA_2020_12);
    expect(Object.keys(tool.inputSchema)).toEqual([
      '$schema',
      'type',
      '$defs',
      'properties',
      'allOf',
      'if',
      'then',
      'else',
      'additionalProperties',
    ]);
  });

  it('json_schema_2020_12_tool validates its arguments against that schema', async () => {
    const c = await connect();
    const args = {
      name: 'Ada',
      address: { street: '1 Main St', city: 'London' },
      email: 'ada@example.com',
    };
    expect(await c.callTool('json_schema_2020_12_tool', args)).toEqual(
      text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
    );
    const extra = await c.callTool('json_schema_2020_12_tool', { name: 'Ada', age: 3 });
    expect(extra.isError).toBe(true);
    expect(extra.content[0].text).toMatch(/^Invalid arguments for tool json_schema_2020_12_tool/);
    const noContact = await c.callTool('json_schema_2020_12_tool', { name: 'Ada' });
    expect(noContact.isError).toBe(true);
    const badRef = await c.callTool('json_schema_2020_12_tool', {
      address: { city: 7 },
      email: 'ada@example.com',
    });
    expect(badRef.isError).toBe(true);
    expect(badRef.content[0].text).toContain('address.city');
  });

  it('test_simple_text answers a call that has no arguments field', async () => {
    const c = await connect();
    expect(await c.callTool('test_simple_text')).toEqual(
      text('This is a simple text response for testing.'),
    );
  });

  it('test_image_content returns a valid 1x1 PNG', async () => {
    const c = await connect();
    expect(await c.callTool('test_image_content', {})).toEqual({
      content: [{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }],
    });
    const png = Buffer.from(PNG_BASE64, 'base64');
    expect(png.toString('base64')).toBe(PNG_BASE64);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const [ihdr, idat, iend] = pngChunks(png);
    expect([ihdr.type, idat.type, iend.type]).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(ihdr.data.readUInt32BE(0)).toBe(1); // width
    expect(ihdr.data.readUInt32BE(4)).toBe(1); // height
    expect([ihdr.data[8], ihdr.data[9]]).toEqual([8, 6]); // 8-bit RGBA
    expect(inflateSync(idat.data)).toHaveLength(1 + 4); // one filter byte + one RGBA pixel
    expect(iend.data).toHaveLength(0);
  });

  it('test_audio_content returns a valid WAV with mimeType audio/wav', async () => {
    const c = await connect();
    expect(await c.callTool('test_audio_content', {})).toEqual({
      content: [{ type: 'audio', data: WAV_BASE64, mimeType: 'audio/wav' }],
    });
    const wav = Buffer.from(WAV_BASE64, 'base64');
    expect(wav.toString('base64')).toBe(WAV_BASE64);
    expect(wav.toString('latin1', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.toString('latin1', 8, 12)).toBe('WAVE');
    const [fmt, data] = wavChunks(wav);
    expect([fmt.id, data.id]).toEqual(['fmt ', 'data']);
    expect(fmt.data).toHaveLength(16);
    expect(fmt.data.readUInt16LE(0)).toBe(1); // PCM
    const [channels, rate, bits] = [
      fmt.data.readUInt16LE(2),
      fmt.data.readUInt32LE(4),
      fmt.data.readUInt16LE(14),
    ];
    expect(fmt.data.readUInt32LE(8)).toBe((rate * channels * bits) / 8); // byte rate
    expect(fmt.data.readUInt16LE(12)).toBe((channels * bits) / 8); // block align
    expect(data.data.length).toBeGreaterThan(0);
    expect(data.data.length % ((channels * bits) / 8)).toBe(0);
    expect(12 + 8 + fmt.data.length + 8 + data.data.length).toBe(wav.length);
  });

  it('test_embedded_resource returns an embedded text resource', async () => {
    const c = await connect();
    expect(await c.callTool('test_embedded_resource', {})).toEqual({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    });
  });

  it('test_multiple_content_types returns text, image and resource', async () => {
    const c = await connect();
    expect(await c.callTool('test_multiple_content_types', {})).toEqual({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: '{"test":"data","value":123}',
          },
        },
      ],
    });
  });

  it('test_tool_with_logging sends three info messages tied to the call, before its result', async () => {
    const c = await connect();
    expect(await c.result('logging/setLevel', { level: 'debug' })).toEqual({});
    const call = c.message('tools/call', { name: 'test_tool_with_logging', arguments: {} });
    const response = await c.send(call);
    // Everything the call logged was pushed before its response resolved.
    const logs = c.notificationsOf('notifications/message');
    expect(logs).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: 'Tool execution started' },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: 'Tool processing data' },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: 'Tool execution completed' },
      },
    ]);
    for (const log of logs) expect(relatedRequestOf(log)).toBe(call.id);
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: call.id,
      result: text('Tool with logging executed successfully'),
    });
  });

  it('test_tool_with_logging stays silent above its level', async () => {
    const c = await connect();
    await c.result('logging/setLevel', { level: 'warning' });
    expect(await c.callTool('test_tool_with_logging', {})).toEqual(
      text('Tool with logging executed successfully'),
    );
    expect(c.notificationsOf('notifications/message')).toEqual([]);
  });

  it('test_tool_with_logging stops at once when the call is cancelled', async () => {
    const c = await connect();
    const started = c.next((m) => m.method === 'notifications/message');
    const call = c.message('tools/call', { name: 'test_tool_with_logging', arguments: {} });
    const pending = c.send(call);
    await started;
    await c.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: call.id, reason: 'test' },
    });
    // The abortable pause ends the tool: no response, and no later log line was sent.
    expect(await pending).toBeNull();
    expect(c.notificationsOf('notifications/message').map((m) => m.params.data)).toEqual([
      'Tool execution started',
    ]);
    expect(c.received.filter((m) => m.id === call.id)).toEqual([]);
  });

  it('test_error_handling returns an isError result, not a JSON-RPC error', async () => {
    const c = await connect();
    const call = c.message('tools/call', { name: 'test_error_handling', arguments: {} });
    expect(await c.send(call)).toEqual({
      jsonrpc: '2.0',
      id: call.id,
      result: {
        content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }],
        isError: true,
      },
    });
  });

  it('test_tool_with_progress reports 0, 50 and 100 of 100 for the token', async () => {
    const c = await connect();
    const call = c.message('tools/call', {
      name: 'test_tool_with_progress',
      arguments: {},
      _meta: { progressToken: 'progress-test-1' },
    });
    const response = await c.send(call);
    const progress = c.notificationsOf('notifications/progress');
    expect(progress.map((m) => m.params)).toEqual([
      { progressToken: 'progress-test-1', progress: 0, total: 100 },
      { progressToken: 'progress-test-1', progress: 50, total: 100 },
      { progressToken: 'progress-test-1', progress: 100, total: 100 },
    ]);
    for (const m of progress) expect(relatedRequestOf(m)).toBe(call.id);
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: call.id,
      result: text('Progress test completed'),
    });
  });

  it('test_tool_with_progress sends no progress without a token', async () => {
    const c = await connect();
    expect(await c.callTool('test_tool_with_progress', {})).toEqual(
      text('Progress test completed'),
    );
    expect(c.notificationsOf('notifications/progress')).toEqual([]);
  });

  it('test_sampling round-trips sampling/createMessage on the caller connection', async () => {
    const c = await connect();
    const other = await connect();
    const { request, pending, callId } = await callAndCatch(
      c,
      'test_sampling',
      { prompt: 'Test prompt for sampling' },
      'sampling/createMessage',
    );
    expect(request).toEqual({
      jsonrpc: '2.0',
      id: expect.any(String),
      method: 'sampling/createMessage',
      params: {
        messages: [{ role: 'user', content: { type: 'text', text: 'Test prompt for sampling' } }],
        maxTokens: 100,
      },
    });
    expect(relatedRequestOf(request)).toBe(callId);
    expect(other.received).toEqual([]);
    expect(
      await c.answer(request, {
        role: 'assistant',
        content: { type: 'text', text: 'This is a test response from the client' },
        model: 'test-model',
        stopReason: 'endTurn',
      }),
    ).toBeNull();
    expect(await pending).toEqual({
      jsonrpc: '2.0',
      id: callId,
      result: text('LLM response: This is a test response from the client'),
    });
  });

  it('test_sampling needs the prompt argument and the sampling capability', async () => {
    const c = await connect({ elicitation: {} });
    const missing = await c.callTool('test_sampling', {});
    expect(missing.isError).toBe(true);
    expect(missing.content[0].text).toMatch(/^Invalid arguments for tool test_sampling: .*prompt/);
    expect(await c.callTool('test_sampling', { prompt: 'hi' })).toEqual({
      content: [{ type: 'text', text: 'The client did not declare the sampling capability' }],
      isError: true,
    });
    expect(c.received).toEqual([]);
  });
});
