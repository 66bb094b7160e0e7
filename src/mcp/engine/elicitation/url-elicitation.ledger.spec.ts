import { McpConnection } from '../connection/mcp-connection.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';
import {
  MAX_URL_ELICITATIONS_PER_CONNECTION,
  findUrlElicitation,
  forgetUrlElicitation,
  recordUrlElicitation,
} from './url-elicitation.ledger.js';

const requestOn = (connection: McpConnection, id = 1) =>
  ({ id, connection, principal: { subject: 'ann', scopes: [] } }) as unknown as McpRequest;
const elicitation = (elicitationId: string) => ({
  elicitationId,
  url: `https://example.com/c?id=${elicitationId}`,
  message: 'go',
});

describe('the URL elicitation ledger', () => {
  it('finds an elicitation on the connection that was sent it, with who and which request', () => {
    const a = new McpConnection('a');
    const b = new McpConnection('b');
    recordUrlElicitation(requestOn(a, 7), elicitation('e1'));
    expect(findUrlElicitation([b], 'e1')).toBeUndefined();
    expect(findUrlElicitation([b, a], 'e1')).toMatchObject({
      elicitationId: 'e1',
      connection: a,
      principal: { subject: 'ann' },
      requestId: 7,
    });
  });

  it('forgets one on demand, and all of a connection when it closes', () => {
    const a = new McpConnection('a');
    recordUrlElicitation(requestOn(a), elicitation('e1'));
    recordUrlElicitation(requestOn(a), elicitation('e2'));
    forgetUrlElicitation(a, 'e1');
    expect(findUrlElicitation([a], 'e1')).toBeUndefined();
    expect(findUrlElicitation([a], 'e2')).toBeDefined();
    a.close();
    expect(findUrlElicitation([a], 'e2')).toBeUndefined();
  });

  it('keeps a bounded number per connection, dropping the oldest (a repeat counts as new)', () => {
    const a = new McpConnection('a');
    for (let i = 0; i < MAX_URL_ELICITATIONS_PER_CONNECTION; i++) {
      recordUrlElicitation(requestOn(a), elicitation(`e${i}`));
    }
    recordUrlElicitation(requestOn(a), elicitation('e0')); // e0 is the newest now
    recordUrlElicitation(requestOn(a), elicitation('extra'));
    expect(findUrlElicitation([a], 'e0')).toBeDefined();
    expect(findUrlElicitation([a], 'e1')).toBeUndefined();
    expect(findUrlElicitation([a], 'extra')).toBeDefined();
  });
});
