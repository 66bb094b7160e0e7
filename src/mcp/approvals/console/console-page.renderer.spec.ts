import { askView, decisionView } from './console-ask.view.js';
import { askCard, renderHistoryPage } from './console-page.renderer.js';
import type { McpOperatorAskRecord } from '../operator/operator-ask.interface.js';

/* The console names the policy that sent an ask, on its card and in the history. */

const record: McpOperatorAskRecord = {
  id: 'a1',
  tool: 'delete_note',
  prompt: 'Delete note n1, written by alice?',
  caller: { subject: 'bob', key: 'sub:bob' },
  preview: '{"id":"n1"}',
  policies: ['delete-others-note-asks-operator'],
  createdAt: 1,
  expiresAt: 2,
  decision: { approved: true, operator: 'olga', decidedAt: 3, via: 'api' },
};

describe('the console and policies', () => {
  it('shows the asking policy on the card, escaped, and a dash when a closure asked', () => {
    expect(String(askCard(askView(record)))).toContain(
      '<dd class="policies">delete-others-note-asks-operator</dd>',
    );
    const { policies: _policies, ...closure } = record;
    expect(String(askCard(askView(closure as McpOperatorAskRecord)))).toContain(
      '<dd class="policies">—</dd>',
    );
    const hostile = { ...record, policies: ['<script>x</script>'] };
    expect(String(askCard(askView(hostile)))).not.toContain('<script>x');
  });

  it('lists it in the history beside the decision', () => {
    const decided = decisionView(record)!;
    expect(decided.policies).toBe('delete-others-note-asks-operator');
    const page = renderHistoryPage(
      '/approvals',
      { id: 's', operator: { subject: 'olga', scopes: [] }, csrf: 'c' },
      [
        {
          time: 3,
          outcome: 'approved',
          tool: decided.tool,
          caller: decided.caller,
          operator: decided.operator,
          policies: decided.policies,
        },
      ],
    );
    expect(page).toContain('<th scope="col">Policy</th>');
    expect(page).toContain('<td>delete-others-note-asks-operator</td>');
  });
});
