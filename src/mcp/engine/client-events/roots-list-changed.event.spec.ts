import { jest } from '@jest/globals';
import { McpConnection } from '../connection/mcp-connection.js';
import type { McpOutboundRequests } from '../outbound/mcp-outbound-requests.service.js';
import { rootsListChangedEvent } from './roots-list-changed.event.js';

function outboundAnswering(result: unknown) {
  const request = jest.fn(async () => result);
  return { request, outbound: { request } as unknown as McpOutboundRequests };
}

describe('rootsListChangedEvent', () => {
  const principal = { subject: 'ann', scopes: ['notes:read'] };

  it('names the connection, the transport and the principal', () => {
    const { outbound } = outboundAnswering({ roots: [] });
    const event = rootsListChangedEvent(
      new McpConnection('c1'),
      { transport: 'stdio', principal },
      outbound,
    );
    expect(event).toEqual({
      connId: 'c1',
      transport: 'stdio',
      principal,
      listRoots: expect.any(Function),
    });
  });

  it('asks that connection for roots/list and checks the answer', async () => {
    const connection = new McpConnection('c1');
    connection.capabilities = { roots: {} };
    const good = outboundAnswering({ roots: [{ uri: 'file:///a' }] });
    const event = rootsListChangedEvent(connection, { transport: 'http' }, good.outbound);
    expect(await event.listRoots()).toEqual({ roots: [{ uri: 'file:///a' }] });
    expect(good.request).toHaveBeenCalledWith(connection, 'roots/list', {});

    const bad = outboundAnswering({ roots: 'all of them' });
    const malformed = rootsListChangedEvent(connection, { transport: 'http' }, bad.outbound);
    await expect(malformed.listRoots()).rejects.toThrow('malformed result');
  });

  it('sends nothing to a client that did not declare roots', async () => {
    const { request, outbound } = outboundAnswering({ roots: [] });
    const event = rootsListChangedEvent(new McpConnection('c1'), { transport: 'http' }, outbound);
    await expect(event.listRoots()).rejects.toThrow('did not declare the roots capability');
    expect(request).not.toHaveBeenCalled();
  });
});
