import { jest } from '@jest/globals';
import { approvalInRound } from './approval-round.js';
import { McpInputRound } from '../../core/multi-round-trip/input-round.js';
// The production verdict itself, so this spec cannot drift from it.
import { approvalVerdictOf as verdictOf } from './approval-verdict.js';

const QUESTION = {
  message: 'Run delete_ticket?',
  requestedSchema: {
    type: 'object',
    properties: { approve: { type: 'boolean' } },
    required: ['approve'],
  },
};

function verifiedRound(answer: unknown): McpInputRound {
  return new McpInputRound({}, { approval: answer }, false);
}

describe('approvalInRound', () => {
  it('denies with the refused state’s own detail', () => {
    const round = new McpInputRound(
      {},
      { approval: { action: 'accept', content: { approve: true } } },
      true,
      'approval already used',
    );
    expect(approvalInRound(round, QUESTION, verdictOf)).toEqual({
      approved: false,
      detail: 'approval already used',
    });
    expect(round.pending).toBe(false);
  });

  it('stands by an approval given in an earlier round without asking', () => {
    const round = new McpInputRound({}, {}, true);
    const verdict = jest.fn(verdictOf);
    expect(approvalInRound(round, QUESTION, verdict)).toEqual({ approved: true });
    expect(verdict).not.toHaveBeenCalled();
    expect(round.pending).toBe(false);
  });

  it('approves on a verified approving answer and records it on the round', () => {
    const round = verifiedRound({ action: 'accept', content: { approve: true } });
    expect(approvalInRound(round, QUESTION, verdictOf)).toEqual({ approved: true });
    expect(round.approved).toBe(true);
    expect(round.pending).toBe(false);
  });

  it.each([
    ['decline', { action: 'decline' }, 'user declined'],
    ['cancel', { action: 'cancel' }, 'user cancelled'],
    [
      'accept without approve',
      { action: 'accept', content: { approve: false } },
      'user did not approve',
    ],
    ['accept with no content', { action: 'accept' }, 'user did not approve'],
  ])('denies a verified %s answer with the verdict’s detail', (_label, answer, detail) => {
    const round = verifiedRound(answer);
    expect(approvalInRound(round, QUESTION, verdictOf)).toEqual({ approved: false, detail });
    expect(round.approved).toBe(false);
    expect(round.pending).toBe(false);
  });

  it('passes the verified answer itself to the verdict function', () => {
    const answer = { action: 'decline' };
    const verdict = jest.fn(verdictOf);
    approvalInRound(verifiedRound(answer), QUESTION, verdict);
    expect(verdict).toHaveBeenCalledWith(answer);
  });

  it('asks for "approval" with the question when there is no verified answer', () => {
    const round = new McpInputRound({}, {}, false);
    expect(approvalInRound(round, QUESTION, verdictOf)).toEqual({ asked: true });
    expect(round.inputRequests()).toEqual({
      approval: { method: 'elicitation/create', params: QUESTION },
    });
  });

  it('asks again when only an unverified response approves', () => {
    const round = new McpInputRound(
      { approval: { action: 'accept', content: { approve: true } } },
      {},
      false,
    );
    expect(approvalInRound(round, QUESTION, verdictOf)).toEqual({ asked: true });
    expect(round.approved).toBe(false);
    expect(Object.keys(round.inputRequests())).toEqual(['approval']);
  });

  it('asks again when the verified answer is not an ElicitResult', () => {
    const round = verifiedRound({ approve: true });
    expect(approvalInRound(round, QUESTION, verdictOf)).toEqual({ asked: true });
  });
});
