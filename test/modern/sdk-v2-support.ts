import type { Client } from '@modelcontextprotocol/client';

/** What the SDK client's handlers answer, and every question they were asked. */
export interface SdkAnswers {
  elicit: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string | boolean> };
  asked: { method: string; params: unknown }[];
}

/**
 * Registers the client's elicitation, sampling and roots handlers, which the
 * SDK also uses to fulfil input-required results in the modern era.
 */
export function sdkAnswers(client: Client): SdkAnswers {
  const answers: SdkAnswers = { elicit: { action: 'cancel' }, asked: [] };
  client.setRequestHandler('elicitation/create', async (request) => {
    answers.asked.push({ method: 'elicitation/create', params: request.params });
    return answers.elicit;
  });
  client.setRequestHandler('sampling/createMessage', async (request) => {
    answers.asked.push({ method: 'sampling/createMessage', params: request.params });
    return {
      model: 'test-model',
      role: 'assistant' as const,
      content: { type: 'text' as const, text: 'a model wrote this' },
    };
  });
  client.setRequestHandler('roots/list', async (request) => {
    answers.asked.push({ method: 'roots/list', params: request.params });
    return { roots: [{ uri: 'file:///projects/a' }, { uri: 'file:///projects/b' }] };
  });
  return answers;
}
