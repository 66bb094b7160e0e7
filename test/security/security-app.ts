import { Injectable } from '@nestjs/common';
import {
  Authorizers,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpTool,
  type Authorizer,
  type McpModuleOptions,
} from '../../src/index.js';

/*
 * Security review: DNS rebinding (Host and Origin variants), session
 * fixation, answers to another session's elicitation, forged and replayed
 * answers, and enumeration through completion/complete and error messages.
 */

export type Msg = Record<string, any>;

export const runs: string[] = [];
export const SECRET_TEXT = 'the launch codes are 0000';
export const ASK_PROMPT_TEXT = 'Reveal the plan to this caller?';

@Injectable()
export class SecurityTools {
  @McpTool({ description: 'Needs approval', input: { type: 'object' } })
  guarded() {
    runs.push('guarded');
    return 'guarded ran';
  }

  @McpTool({
    description: 'Visible',
    input: { type: 'object', properties: { q: { type: 'string' } } },
    completions: { q: 'completeQ' },
  })
  visible_tool() {
    return 'visible';
  }

  @McpTool({
    description: 'Hidden from every caller by the tool policy',
    input: { type: 'object', properties: { q: { type: 'string' } } },
    completions: { q: 'completeQ' },
  })
  hidden_tool() {
    runs.push('hidden_tool');
    return 'hidden';
  }

  completeQ(prefix: string) {
    return ['alpha', 'beta'].filter((v) => v.startsWith(prefix));
  }

  @McpPrompt({
    name: 'secret_prompt',
    description: 'A prompt this caller must not learn about',
    arguments: [{ name: 'topic', complete: 'completeTopic' }],
  })
  secretPrompt() {
    return [{ role: 'user', content: { type: 'text', text: SECRET_TEXT } }];
  }

  completeTopic(prefix: string) {
    return ['launch', 'landing'].filter((v) => v.startsWith(prefix));
  }

  @McpResource({ uri: 'secret://doc', mimeType: 'text/plain' })
  secretDoc() {
    return SECRET_TEXT;
  }

  @McpResourceTemplate({ uriTemplate: 'secret://{id}/plan', complete: { id: 'completeTopic' } })
  secretPlan() {
    return SECRET_TEXT;
  }
}

/** Tool seam: ask for `guarded`, deny every `hidden_*` name (existing or not), allow the rest. */
export const toolPolicy: Authorizer = (name) => {
  if (name === 'guarded') return { kind: 'ask', prompt: 'Run guarded?' };
  if (name.startsWith('hidden_')) return { kind: 'deny', reason: 'not_yours' };
  return { kind: 'allow' };
};

export const HTTP_OPTIONS: Partial<McpModuleOptions> = {
  authorizer: toolPolicy,
  authorizerSource: 'configured',
  readAuthorizer: Authorizers.allowAll(),
  elicitationTimeoutMs: 10_000,
};

/**
 * The body of an MCP HTTP refusal: a JSON-RPC error whose id is `id` (the
 * refused request's, once its body was read; null before that).
 */
export function errorBody(id: number | string | null = null) {
  return {
    jsonrpc: '2.0',
    id,
    error: { code: expect.any(Number), message: expect.any(String) },
  };
}
