import { PNG_BASE64 } from '../fixtures/conformance/conformance.media.js';
import { connect, useConformanceApp } from './conformance-app.js';

useConformanceApp();

describe('conformance fixture: prompts', () => {
  it('lists the five prompts with descriptions and arguments', async () => {
    const c = await connect();
    expect(await c.result('prompts/list')).toEqual({
      prompts: [
        { name: 'test_simple_prompt', description: 'A prompt with no arguments.' },
        {
          name: 'test_prompt_with_arguments',
          description: 'A prompt with two required arguments.',
          arguments: [
            { name: 'arg1', description: 'First test argument', required: true },
            { name: 'arg2', description: 'Second test argument', required: true },
          ],
        },
        {
          name: 'test_prompt_with_embedded_resource',
          description: 'A prompt that embeds the resource it is given.',
          arguments: [
            { name: 'resourceUri', description: 'URI of the resource to embed', required: true },
          ],
        },
        { name: 'test_prompt_with_image', description: 'A prompt with an image.' },
        {
          name: 'test_input_required_result_prompt',
          description: 'A prompt that asks the user for its context first.',
        },
      ],
    });
  });

  it('gets test_simple_prompt', async () => {
    const c = await connect();
    expect(await c.result('prompts/get', { name: 'test_simple_prompt' })).toEqual({
      description: 'A prompt with no arguments.',
      messages: [
        { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
      ],
    });
  });

  it('gets test_prompt_with_arguments, and refuses it without arg2', async () => {
    const c = await connect();
    const args = { arg1: 'testValue1', arg2: 'testValue2' };
    expect(
      await c.result('prompts/get', { name: 'test_prompt_with_arguments', arguments: args }),
    ).toEqual({
      description: 'A prompt with two required arguments.',
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: "Prompt with arguments: arg1='testValue1', arg2='testValue2'",
          },
        },
      ],
    });
    const missing = await c.request('prompts/get', {
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'x' },
    });
    expect(missing!.error).toMatchObject({
      code: -32602,
      message: 'Missing required arguments for prompt test_prompt_with_arguments: arg2',
    });
  });

  it('gets test_prompt_with_embedded_resource with the given URI', async () => {
    const c = await connect();
    const result = await c.result('prompts/get', {
      name: 'test_prompt_with_embedded_resource',
      arguments: { resourceUri: 'test://example-resource' },
    });
    expect(result).toEqual({
      description: 'A prompt that embeds the resource it is given.',
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: 'test://example-resource',
              mimeType: 'text/plain',
              text: 'Embedded resource content for testing.',
            },
          },
        },
        {
          role: 'user',
          content: { type: 'text', text: 'Please process the embedded resource above.' },
        },
      ],
    });
  });

  it('gets test_prompt_with_image', async () => {
    const c = await connect();
    expect(await c.result('prompts/get', { name: 'test_prompt_with_image' })).toEqual({
      description: 'A prompt with an image.',
      messages: [
        { role: 'user', content: { type: 'image', data: PNG_BASE64, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    });
  });
});
