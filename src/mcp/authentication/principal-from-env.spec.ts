import { principalFromEnv } from './principal-from-env.js';

describe('principalFromEnv', () => {
  it('reads the subject and space-separated scopes', () => {
    expect(
      principalFromEnv({ MCP_PRINCIPAL_SUBJECT: ' ops ', MCP_PRINCIPAL_SCOPES: 'a  b' }),
    ).toEqual({
      subject: 'ops',
      scopes: ['a', 'b'],
      issuer: 'environment',
    });
  });

  it('is anonymous without a subject, whatever the scopes say', () => {
    expect(principalFromEnv({ MCP_PRINCIPAL_SCOPES: 'notes:admin' })).toBeUndefined();
    expect(principalFromEnv({ MCP_PRINCIPAL_SUBJECT: '  ' })).toBeUndefined();
  });
});
