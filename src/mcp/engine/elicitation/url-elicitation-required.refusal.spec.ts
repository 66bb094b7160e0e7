import { ProtocolError, UrlElicitationRequiredError } from '@modelcontextprotocol/server';
import { McpWardenError } from '../../core/errors/mcp-warden.error.js';
import { protocolErrorOf } from '../../core/errors/sdk-errors.js';
import { McpUrlElicitationRequiredError } from '../../core/errors/url-elicitation-required.error.js';
import type { ClientCapabilities } from '../../core/protocol/mcp-types.js';
import { McpConnection } from '../connection/mcp-connection.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';
import {
  URL_ELICITATION_UNDECLARED,
  answerableError,
  urlElicitationRefusal,
} from './url-elicitation-required.refusal.js';
import { findUrlElicitation } from './url-elicitation.ledger.js';

const elicitation = { elicitationId: 'e1', url: 'https://example.com/c', message: 'go' };

function requestWith(elicitation?: ClientCapabilities['elicitation']): McpRequest {
  const connection = new McpConnection('c');
  connection.capabilities = elicitation ? { elicitation } : {};
  return {
    id: 3,
    connection,
    era: 'legacy',
    clientCapabilities: connection.capabilities,
  } as unknown as McpRequest;
}

describe('urlElicitationRefusal', () => {
  it('lets other errors through untouched', () => {
    expect(urlElicitationRefusal(new McpWardenError(-32602, 'bad'), requestWith())).toBeUndefined();
  });

  it('allows a -32042 where URL mode was declared, and records its elicitations', () => {
    const request = requestWith({ url: {} });
    const error = new McpUrlElicitationRequiredError([elicitation]);
    expect(urlElicitationRefusal(error, request)).toBeUndefined();
    expect(findUrlElicitation([request.connection], 'e1')?.requestId).toBe(3);
  });

  it.each<[ClientCapabilities['elicitation']]>([[undefined], [{}], [{ form: {} }]])(
    'refuses it where elicitation is %j, recording nothing',
    (capability) => {
      const request = requestWith(capability);
      const error = new McpUrlElicitationRequiredError([elicitation]);
      expect(urlElicitationRefusal(error, request)).toBe(URL_ELICITATION_UNDECLARED);
      expect(findUrlElicitation([request.connection], 'e1')).toBeUndefined();
    },
  );

  it("judges the official SDK's error the same way, and refuses one built with bad data", () => {
    const request = requestWith({ url: {} });
    const sdk = protocolErrorOf(new UrlElicitationRequiredError([{ mode: 'url', ...elicitation }]));
    expect(urlElicitationRefusal(sdk!, request)).toBeUndefined();
    for (const data of [undefined, { elicitations: [] }, { elicitations: [{ mode: 'url' }] }]) {
      const bad = protocolErrorOf(new ProtocolError(-32042, 'needs a page', data));
      expect(urlElicitationRefusal(bad!, request)).toMatch(/listed none it could send/);
    }
  });
});

describe('answerableError', () => {
  it('turns a refused -32042 into a -32603 saying why, and leaves anything else as thrown', () => {
    const error = new McpUrlElicitationRequiredError([elicitation]);
    expect(answerableError(error, requestWith({ url: {} }))).toBe(error);
    expect(answerableError(error, requestWith())).toMatchObject({
      code: -32603,
      message: URL_ELICITATION_UNDECLARED,
    });
    const other = new Error('boom');
    expect(answerableError(other, requestWith())).toBe(other);
  });
});

describe('urlElicitationRefusal in the 2026-07-28 era', () => {
  it('never lets a -32042 out: the era has no such error', () => {
    const connection = new McpConnection('m');
    const request = {
      id: 4,
      connection,
      era: 'modern',
      clientCapabilities: { elicitation: { url: {} } },
    } as unknown as McpRequest;
    const error = new McpUrlElicitationRequiredError([
      { elicitationId: 'e9', url: 'https://example.com/go', message: 'Go' },
    ]);
    expect(urlElicitationRefusal(error, request)).toMatch(/ctx\.elicitUrl\(\)/);
  });
});
