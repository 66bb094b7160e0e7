import { operatorAskUrl } from './operator-ask.url.js';

describe('operatorAskUrl', () => {
  it("is the console's page for the ask on its public origin", () => {
    expect(operatorAskUrl('a1', { origin: 'https://w.example.com', path: '/approvals' })).toBe(
      'https://w.example.com/approvals/asks/a1',
    );
  });

  it("goes under the app's global prefix, however it is slashed", () => {
    for (const globalPrefix of ['api', '/api', '/api/']) {
      expect(
        operatorAskUrl('a1', { origin: 'https://w.example.com', path: '/approvals', globalPrefix }),
      ).toBe('https://w.example.com/api/approvals/asks/a1');
    }
  });

  it('escapes the id', () => {
    expect(operatorAskUrl('a/b?c', { origin: 'https://w.example.com', path: '/ops' })).toBe(
      'https://w.example.com/ops/asks/a%2Fb%3Fc',
    );
  });

  it('is a URN nothing can open without a console origin, or with a broken one', () => {
    expect(operatorAskUrl('a1', { path: '/approvals' })).toBe('urn:mcp-warden:approval:a1');
    expect(operatorAskUrl('a1', { origin: 'not a url', path: '/approvals' })).toBe(
      'urn:mcp-warden:approval:a1',
    );
  });
});
