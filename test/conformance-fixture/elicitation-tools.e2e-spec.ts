import { ElicitRequestFormParamsSchema } from '@modelcontextprotocol/core';
import { relatedRequestOf } from '../../src/testing/index.js';
import {
  SEP1034_SCHEMA,
  SEP1330_SCHEMA,
  text,
  connect,
  callAndCatch,
  useConformanceApp,
} from './conformance-app.js';

useConformanceApp();

describe('conformance fixture: elicitation tools', () => {
  it('test_elicitation asks for username and email and reports the answer', async () => {
    const c = await connect();
    const { request, pending, callId } = await callAndCatch(
      c,
      'test_elicitation',
      { message: 'Please provide your information' },
      'elicitation/create',
    );
    expect(request).toEqual({
      jsonrpc: '2.0',
      id: expect.any(String),
      method: 'elicitation/create',
      params: {
        message: 'Please provide your information',
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "The user's name" },
            email: { type: 'string', description: "The user's e-mail address" },
          },
          required: ['username', 'email'],
        },
      },
    });
    expect(relatedRequestOf(request)).toBe(callId);
    await c.answer(request, {
      action: 'accept',
      content: { username: 'testuser', email: 'test@example.com' },
    });
    expect((await pending)!.result).toEqual(
      text(
        'User response: action=accept, content={"username":"testuser","email":"test@example.com"}',
      ),
    );
  });

  it.each(['decline', 'cancel'])('test_elicitation reports a %s', async (action) => {
    const c = await connect();
    const { request, pending } = await callAndCatch(
      c,
      'test_elicitation',
      { message: 'Who are you?' },
      'elicitation/create',
    );
    expect(request.params.message).toBe('Who are you?');
    await c.answer(request, { action });
    expect((await pending)!.result).toEqual(text(`User response: action=${action}`));
  });

  it('test_elicitation_sep1034_defaults sends a default for every primitive type', async () => {
    const c = await connect();
    const { request, pending } = await callAndCatch(
      c,
      'test_elicitation_sep1034_defaults',
      {},
      'elicitation/create',
    );
    expect(request.params).toEqual({
      message: 'Please review and update the form fields with defaults',
      requestedSchema: SEP1034_SCHEMA,
    });
    expect(ElicitRequestFormParamsSchema.safeParse(request.params).success).toBe(true);
    const content = { name: 'Jane Smith', age: 25, score: 88, status: 'inactive', verified: false };
    await c.answer(request, { action: 'accept', content });
    expect((await pending)!.result).toEqual(
      text(`User response: action=accept, content=${JSON.stringify(content)}`),
    );
  });

  it('test_elicitation_sep1330_enums sends every enum variant', async () => {
    const c = await connect();
    const { request, pending } = await callAndCatch(
      c,
      'test_elicitation_sep1330_enums',
      {},
      'elicitation/create',
    );
    expect(request.params).toEqual({
      message: 'Please select options from the enum fields',
      requestedSchema: SEP1330_SCHEMA,
    });
    expect(ElicitRequestFormParamsSchema.safeParse(request.params).success).toBe(true);
    // The suite's own shape checks, stated directly.
    const p = request.params.requestedSchema.properties;
    expect(p.untitledSingle).not.toHaveProperty('oneOf');
    expect(p.untitledSingle).not.toHaveProperty('enumNames');
    expect(p.titledSingle).not.toHaveProperty('enum');
    expect(p.legacyEnum.enumNames).toHaveLength(p.legacyEnum.enum.length);
    expect(p.untitledMulti.items).not.toHaveProperty('anyOf');
    expect(p.titledMulti.items).not.toHaveProperty('enum');
    const content = {
      untitledSingle: 'option1',
      titledSingle: 'value2',
      legacyEnum: 'opt3',
      untitledMulti: ['option1', 'option3'],
      titledMulti: ['value1'],
    };
    await c.answer(request, { action: 'accept', content });
    expect((await pending)!.result).toEqual(
      text(`User response: action=accept, content=${JSON.stringify(content)}`),
    );
  });
});
