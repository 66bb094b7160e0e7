import { rejection } from '../../../../../test/support/rejection.js';
import { jest } from '@jest/globals';
import type { McpPrincipal } from '../../../authentication/principal.interface.js';
import { resolveMcpOptions } from '../../../options/options.resolver.js';
import type { McpInputRound } from '../../../core/multi-round-trip/input-round.js';
import { McpInputRounds } from './input-rounds.service.js';
import { MemoryNonceStore } from '../../../core/stores/memory-nonce.store.js';
import { McpRequestStateSealer } from './request-state.sealer.js';

const ALICE: McpPrincipal = { subject: 'alice', scopes: [], issuer: 'https://id.example' };
const BOB: McpPrincipal = { subject: 'bob', scopes: [], issuer: 'https://id.example' };
const CALL = { name: 'transfer', arguments: { to: 'bob', amount: 5 } };
const APPROVE = { action: 'accept', content: { approve: true } };
const NAMED = { action: 'accept', content: { name: 'Ada' } };
const QUESTION = { message: 'Run transfer?', requestedSchema: { type: 'object', properties: {} } };

function rounds(): McpInputRounds {
  const options = resolveMcpOptions({ name: 't', version: '1', stateSecret: 'secret' });
  return new McpInputRounds(new McpRequestStateSealer(options), new MemoryNonceStore(100), options);
}

/* A first round that asks for the approval, and the state of its retry. */
async function askedApproval(service: McpInputRounds, principal: McpPrincipal | undefined = ALICE) {
  const first = await service.begin('tools/call', {}, CALL, principal);
  first.ask('approval', { method: 'elicitation/create', params: QUESTION });
  return service.inputRequired(first, 'tools/call', CALL, principal);
}

function expectRefused(round: McpInputRound, problem: string): void {
  expect(round.problem).toBe(problem);
  expect(round.approved).toBe(false);
  expect(round.verifiedAnswerOf('approval', 'elicitation/create')).toBeUndefined();
}

describe('McpInputRounds', () => {
  afterEach(() => jest.restoreAllMocks());

  describe('begin() without a requestState', () => {
    it('opens a fresh round that answers handler inputs from this retry’s responses', async () => {
      const round = await rounds().begin(
        'tools/call',
        { inputResponses: { 'elicit-0': NAMED } },
        CALL,
        ALICE,
      );
      expect(round.problem).toBeUndefined();
      expect(round.approved).toBe(false);
      await expect(round.request('elicitation/create', QUESTION)).resolves.toEqual(NAMED);
    });

    it('never treats this retry’s responses as the verified approval', async () => {
      const round = await rounds().begin(
        'tools/call',
        { inputResponses: { approval: APPROVE } },
        CALL,
        ALICE,
      );
      expect(round.verifiedAnswerOf('approval', 'elicitation/create')).toBeUndefined();
    });

    it('ignores inputResponses that are not an object', async () => {
      const round = await rounds().begin('tools/call', { inputResponses: ['x'] }, CALL, ALICE);
      await rejection(round.request('elicitation/create', QUESTION));
      expect(Object.keys(round.inputRequests())).toEqual(['elicit-0']);
    });
  });

  describe('inputRequired()', () => {
    it('answers {resultType: "input_required", inputRequests, requestState}', async () => {
      const result = await askedApproval(rounds());
      expect(result).toEqual({
        resultType: 'input_required',
        inputRequests: { approval: { method: 'elicitation/create', params: QUESTION } },
        requestState: expect.any(String),
      });
      expect(Object.keys(result)).toEqual(['resultType', 'inputRequests', 'requestState']);
    });

    it('carries the approval to the next round once the round approved', async () => {
      const service = rounds();
      const first = await service.begin('tools/call', {}, CALL, ALICE);
      first.approve();
      await rejection(first.request('elicitation/create', QUESTION));
      const { requestState } = await service.inputRequired(first, 'tools/call', CALL, ALICE);
      const next = await service.begin('tools/call', { requestState }, CALL, ALICE);
      expect(next.problem).toBeUndefined();
      expect(next.approved).toBe(true);
    });

    it('does not carry an approval the round never gave', async () => {
      const service = rounds();
      const { requestState } = await askedApproval(service);
      const next = await service.begin('tools/call', { requestState }, CALL, ALICE);
      expect(next.approved).toBe(false);
    });
  });

  describe('begin() with a sealed requestState', () => {
    it('verifies this retry’s answers for the keys the state asked for, and only those', async () => {
      const service = rounds();
      const { requestState } = await askedApproval(service);
      const next = await service.begin(
        'tools/call',
        { requestState, inputResponses: { approval: APPROVE, other: APPROVE } },
        CALL,
        ALICE,
      );
      expect(next.problem).toBeUndefined();
      expect(next.verifiedAnswerOf('approval', 'elicitation/create')).toEqual(APPROVE);
      expect(next.verifiedAnswerOf('other', 'elicitation/create')).toBeUndefined();
    });

    it('gives the handler the answers it used in earlier rounds', async () => {
      const service = rounds();
      const first = await service.begin(
        'tools/call',
        { inputResponses: { 'elicit-0': NAMED } },
        CALL,
        ALICE,
      );
      await first.request('elicitation/create', QUESTION);
      await rejection(first.request('elicitation/create', QUESTION));
      const { requestState } = await service.inputRequired(first, 'tools/call', CALL, ALICE);
      const next = await service.begin(
        'tools/call',
        { requestState, inputResponses: { 'elicit-1': NAMED } },
        CALL,
        ALICE,
      );
      await expect(next.request('elicitation/create', QUESTION)).resolves.toEqual(NAMED);
      await expect(next.request('elicitation/create', QUESTION)).resolves.toEqual(NAMED);
      expect(next.pending).toBe(false);
    });

    it.each([
      ['other arguments', 'tools/call', { ...CALL, arguments: { to: 'eve', amount: 5 } }, ALICE],
      ['another tool', 'tools/call', { ...CALL, name: 'transfer_all' }, ALICE],
      ['another method', 'prompts/get', CALL, ALICE],
      ['another principal', 'tools/call', CALL, BOB],
      ['an anonymous caller', 'tools/call', CALL, undefined],
    ])(
      'refuses a state presented with %s as "approval state invalid"',
      async (_l, method, params, who) => {
        const service = rounds();
        const { requestState } = await askedApproval(service);
        const round = await service.begin(
          method,
          { requestState, inputResponses: { approval: APPROVE } },
          params,
          who,
        );
        expectRefused(round, 'approval state invalid');
      },
    );

    it('accepts the same arguments in another key order', async () => {
      const service = rounds();
      const { requestState } = await askedApproval(service);
      const reordered = { name: 'transfer', arguments: { amount: 5, to: 'bob' } };
      const round = await service.begin('tools/call', { requestState }, reordered, ALICE);
      expect(round.problem).toBeUndefined();
    });

    it.each([
      ['a number', 42],
      ['an object', { state: 'x' }],
      ['null', null],
      ['a forged string', 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..aaaa.bbbb.cccc'],
    ])('refuses %s as "approval state invalid"', async (_label, requestState) => {
      const round = await rounds().begin(
        'tools/call',
        { requestState, inputResponses: { 'elicit-0': NAMED } },
        CALL,
        ALICE,
      );
      expectRefused(round, 'approval state invalid');
      const error = await rejection(round.request('elicitation/create', QUESTION));
      expect(error.code).toBe(-32602);
    });

    it('refuses a state sealed by another server (another stateSecret)', async () => {
      const other = resolveMcpOptions({ name: 't', version: '1', stateSecret: 'other' });
      const foreign = new McpInputRounds(
        new McpRequestStateSealer(other),
        new MemoryNonceStore(10),
        other,
      );
      const { requestState } = await askedApproval(foreign);
      expectRefused(
        await rounds().begin('tools/call', { requestState }, CALL, ALICE),
        'approval state invalid',
      );
    });

    it('refuses a state past its expiry (elicitationTimeoutMs) as "approval expired"', async () => {
      const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
      const service = rounds();
      const { requestState } = await askedApproval(service);
      now.mockReturnValue(1_000_000 + 60_000);
      expectRefused(
        await service.begin('tools/call', { requestState }, CALL, ALICE),
        'approval expired',
      );
    });

    it('accepts a state up to the last millisecond before its expiry', async () => {
      const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
      const service = rounds();
      const { requestState } = await askedApproval(service);
      now.mockReturnValue(1_000_000 + 59_999);
      const round = await service.begin('tools/call', { requestState }, CALL, ALICE);
      expect(round.problem).toBeUndefined();
    });

    it('refuses a state presented a second time as "approval already used"', async () => {
      const service = rounds();
      const { requestState } = await askedApproval(service);
      const raw = { requestState, inputResponses: { approval: APPROVE } };
      expect((await service.begin('tools/call', raw, CALL, ALICE)).problem).toBeUndefined();
      expectRefused(await service.begin('tools/call', raw, CALL, ALICE), 'approval already used');
    });

    it('does not spend a state that was presented for another request', async () => {
      const service = rounds();
      const { requestState } = await askedApproval(service);
      await service.begin('tools/call', { requestState }, CALL, BOB);
      const round = await service.begin('tools/call', { requestState }, CALL, ALICE);
      expect(round.problem).toBeUndefined();
    });

    it('continues a round whose earlier answers are large (a 60 KB sampling result)', async () => {
      const service = rounds();
      const sampled = {
        role: 'assistant',
        content: { type: 'text', text: 'x'.repeat(60_000) },
        model: 'm',
      };
      const first = await service.begin(
        'tools/call',
        { inputResponses: { 'sample-0': sampled } },
        CALL,
        ALICE,
      );
      await first.request('sampling/createMessage', { messages: [], maxTokens: 100_000 });
      await rejection(first.request('elicitation/create', QUESTION));
      const { requestState } = await service.inputRequired(first, 'tools/call', CALL, ALICE);
      const next = await service.begin(
        'tools/call',
        { requestState, inputResponses: { 'elicit-1': NAMED } },
        CALL,
        ALICE,
      );
      expect(next.problem).toBeUndefined();
      await expect(next.request('sampling/createMessage', {})).resolves.toEqual(sampled);
    });
  });
});
