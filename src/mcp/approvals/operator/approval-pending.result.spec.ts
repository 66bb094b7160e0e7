import { APPROVAL_PENDING_META, approvalPendingResult } from './approval-pending.result.js';

const ask = {
  tool: 'purge_notes',
  prompt: 'Purge every note?',
  id: 'ask-1',
  expiresAt: Date.UTC(2027, 0, 2, 3, 4, 5),
};
const EXPIRES = '2027-01-02T03:04:05.000Z';

describe('approvalPendingResult', () => {
  it('an error result whose text names the console page, the expiry and the retry', () => {
    const url = 'https://warden.example/approvals/asks/ask-1';
    const result = approvalPendingResult({ ...ask, url });
    expect(result.isError).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain('An operator must approve running the purge_notes tool');
    expect(text).toContain('Purge every note?');
    expect(text).toContain(`pending at ${url} until ${EXPIRES}`);
    expect(text).toContain('The tool did not run');
    expect(text).toContain('call purge_notes again with the same arguments');
    const approval = { status: 'pending', id: 'ask-1', expiresAt: EXPIRES, url };
    expect(result._meta).toEqual({ [APPROVAL_PENDING_META]: approval });
    expect(result.structuredContent).toEqual({
      error: 'authorization_required',
      tool: 'purge_notes',
      decision: 'ask',
      detail: 'approval pending',
      approval,
    });
  });

  it('without a console page it names none; `structured: false` keeps only the _meta marker', () => {
    const result = approvalPendingResult(ask, false);
    expect((result.content[0] as { text: string }).text).toContain(`pending until ${EXPIRES}`);
    expect(result.structuredContent).toBeUndefined();
    expect(result._meta).toEqual({
      [APPROVAL_PENDING_META]: { status: 'pending', id: 'ask-1', expiresAt: EXPIRES },
    });
  });
});
