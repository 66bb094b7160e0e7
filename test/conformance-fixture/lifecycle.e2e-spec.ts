import { text, connect, useConformanceApp } from './conformance-app.js';

useConformanceApp();

describe('conformance fixture: lifecycle and utilities', () => {
  it('announces the fixture server and every capability the suite uses', async () => {
    const c = await connect();
    expect(c.initializeResult).toEqual({
      protocolVersion: '2025-11-25',
      capabilities: {
        logging: {},
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        completions: {},
      },
      serverInfo: { name: 'mcp-warden-conformance', version: '0.1.0' },
    });
  });

  it('answers ping and logging/setLevel with empty results', async () => {
    const c = await connect();
    expect(await c.result('ping')).toEqual({});
    expect(await c.result('logging/setLevel', { level: 'info' })).toEqual({});
  });

  it('completes arg1 of test_prompt_with_arguments by prefix', async () => {
    const c = await connect();
    const complete = (name: string, value: string) =>
      c.result('completion/complete', {
        ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
        argument: { name, value },
      });
    expect(await complete('arg1', 'test')).toEqual({
      completion: {
        values: ['testValue1', 'testValue2', 'testValue3'],
        total: 3,
        hasMore: false,
      },
    });
    expect((await complete('arg1', '')).completion.values).toEqual([
      'testValue1',
      'testValue2',
      'testValue3',
      'sampleValue',
    ]);
    expect(await complete('arg2', 'test')).toEqual({
      completion: { values: [], total: 0, hasMore: false },
    });
  });
});

describe('conformance fixture: test_reconnection', () => {
  it('answers after its pause', async () => {
    const c = await connect();
    expect(await c.callTool('test_reconnection', {})).toEqual(text('Reconnection test completed'));
  });
});
