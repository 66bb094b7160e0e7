import { rejection } from '../../../../test/support/rejection.js';
import { McpInvalidParamsError } from '../errors/protocol.errors.js';
import { McpInputRequiredError } from './input-required.error.js';
import { APPROVAL_KEY, McpInputRound } from './input-round.js';

const ACCEPTED = { action: 'accept', content: { name: 'Ada' } };
const SAMPLED = { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' };
const ROOTS = { roots: [{ uri: 'file:///projects/app' }] };
const FORM = { message: 'Your name?', requestedSchema: { type: 'object', properties: {} } };

function round(
  responses: Record<string, unknown> = {},
  verified: Record<string, unknown> = {},
  approvedBefore = false,
): McpInputRound {
  return new McpInputRound(responses, verified, approvedBefore);
}

describe('McpInputRound', () => {
  describe('request()', () => {
    it('resolves with a valid answer from this retry’s responses and asks nothing', async () => {
      const r = round({ 'elicit-0': ACCEPTED });
      await expect(r.request('elicitation/create', FORM)).resolves.toEqual(ACCEPTED);
      expect(r.pending).toBe(false);
      expect(r.inputRequests()).toEqual({});
    });

    it('resolves with a valid answer from the verified answers', async () => {
      const r = round({}, { 'sample-0': SAMPLED });
      await expect(r.request('sampling/createMessage', { messages: [] })).resolves.toEqual(SAMPLED);
      expect(r.pending).toBe(false);
    });

    it('prefers this retry’s answer over the verified one for the same key', async () => {
      const declined = { action: 'decline' };
      const r = round({ 'elicit-0': declined }, { 'elicit-0': ACCEPTED });
      await expect(r.request('elicitation/create', FORM)).resolves.toEqual(declined);
    });

    it('rejects with McpInputRequiredError and records the ask when there is no answer', async () => {
      const r = round();
      const error = await rejection(r.request('elicitation/create', FORM));
      expect(error).toBeInstanceOf(McpInputRequiredError);
      expect((error as McpInputRequiredError).key).toBe('elicit-0');
      expect(r.pending).toBe(true);
      expect(r.inputRequests()).toEqual({
        'elicit-0': { method: 'elicitation/create', params: FORM },
      });
    });

    it.each([
      ['elicitation/create', 'elicit-0', 'an unknown action', { action: 'maybe' }],
      ['elicitation/create', 'elicit-0', 'a sampling result', SAMPLED],
      ['sampling/createMessage', 'sample-0', 'an elicitation result', ACCEPTED],
      ['sampling/createMessage', 'sample-0', 'a result without content', { role: 'assistant' }],
      ['roots/list', 'roots-0', 'roots that are not a list', { roots: 'everything' }],
      ['roots/list', 'roots-0', 'an elicitation result', ACCEPTED],
      ['roots/list', 'roots-0', 'null', null],
    ])('asks again for %s (%s) when the answer is %s', async (method, key, _label, answer) => {
      const r = round({ [key]: answer }, { [key]: answer });
      const error = await rejection(r.request(method, {}));
      expect(error).toBeInstanceOf(McpInputRequiredError);
      expect(r.inputRequests()).toEqual({ [key]: { method, params: {} } });
    });

    it('accepts each method’s own answer shape', async () => {
      const r = round({ 'elicit-0': ACCEPTED, 'sample-1': SAMPLED, 'roots-2': ROOTS });
      await expect(r.request('elicitation/create', FORM)).resolves.toEqual(ACCEPTED);
      await expect(r.request('sampling/createMessage', {})).resolves.toEqual(SAMPLED);
      await expect(r.request('roots/list', {})).resolves.toEqual(ROOTS);
    });

    it('keys unnamed inputs by the order they are asked: elicit-0, sample-1, roots-2', async () => {
      const r = round();
      await rejection(r.request('elicitation/create', FORM));
      await rejection(r.request('sampling/createMessage', { messages: [] }));
      await rejection(r.request('roots/list', {}));
      expect(Object.keys(r.inputRequests())).toEqual(['elicit-0', 'sample-1', 'roots-2']);
    });

    it('keys a named input by its key, without advancing the order of the unnamed ones', async () => {
      const r = round({ city: ACCEPTED });
      await expect(r.request('elicitation/create', FORM, 'city')).resolves.toEqual(ACCEPTED);
      await rejection(r.request('elicitation/create', FORM));
      expect(Object.keys(r.inputRequests())).toEqual(['elicit-0']);
    });

    it('rejects every input with -32602 "Invalid or expired requestState" on a refused state', async () => {
      const r = new McpInputRound(
        { 'elicit-0': ACCEPTED },
        { 'elicit-0': ACCEPTED },
        false,
        'approval expired',
      );
      const error = await rejection(r.request('elicitation/create', FORM));
      expect(error).toBeInstanceOf(McpInvalidParamsError);
      expect((error as McpInvalidParamsError).code).toBe(-32602);
      expect(error.message).toBe('Invalid or expired requestState');
      expect(r.pending).toBe(false);
    });

    it('drops elicitationId from URL-mode params and keeps the rest', async () => {
      const r = round();
      const params = {
        mode: 'url',
        message: 'Sign in',
        url: 'https://example.com/login',
        elicitationId: 'e-1',
      };
      await rejection(r.request('elicitation/create', params));
      expect(r.inputRequests()).toEqual({
        'elicit-0': {
          method: 'elicitation/create',
          params: { mode: 'url', message: 'Sign in', url: 'https://example.com/login' },
        },
      });
      expect(params.elicitationId).toBe('e-1');
    });
  });

  describe('verifiedAnswerOf()', () => {
    it('returns a valid verified answer', () => {
      const r = round({}, { [APPROVAL_KEY]: ACCEPTED });
      expect(r.verifiedAnswerOf(APPROVAL_KEY, 'elicitation/create')).toEqual(ACCEPTED);
    });

    it('ignores an unverified response: the approval cannot be answered without a state', () => {
      const r = round({ [APPROVAL_KEY]: { action: 'accept', content: { approve: true } } });
      expect(r.verifiedAnswerOf(APPROVAL_KEY, 'elicitation/create')).toBeUndefined();
    });

    it('ignores a verified answer of the wrong shape', () => {
      const r = round({}, { [APPROVAL_KEY]: { action: 'maybe' } });
      expect(r.verifiedAnswerOf(APPROVAL_KEY, 'elicitation/create')).toBeUndefined();
    });
  });

  describe('approve() and approved', () => {
    it('starts from the earlier rounds’ approval and records a new one', () => {
      expect(round({}, {}, true).approved).toBe(true);
      const r = round();
      expect(r.approved).toBe(false);
      r.approve();
      expect(r.approved).toBe(true);
    });
  });

  describe('carried()', () => {
    it('carries the verified answers, the answers used this round and the keys asked', async () => {
      const r = round({ 'elicit-0': ACCEPTED, unused: ACCEPTED }, { earlier: SAMPLED });
      await r.request('elicitation/create', FORM);
      await rejection(r.request('roots/list', {}));
      r.ask(APPROVAL_KEY, { method: 'elicitation/create', params: FORM });
      expect(r.carried()).toEqual({
        asked: ['roots-1', APPROVAL_KEY],
        answers: { earlier: SAMPLED, 'elicit-0': ACCEPTED },
      });
    });

    it('carries nothing from a fresh round that asked nothing', () => {
      expect(round().carried()).toEqual({ asked: [], answers: {} });
    });
  });
});

describe('the reserved approval key', () => {
  it('a handler cannot ask under the key the approval uses', async () => {
    const round = new McpInputRound({}, {}, false);
    await expect(
      round.request(
        'elicitation/create',
        { message: 'x', requestedSchema: { type: 'object', properties: {} } },
        'approval',
      ),
    ).rejects.toThrow("The input key 'approval' is reserved");
    expect(round.pending).toBe(false);
  });
});
