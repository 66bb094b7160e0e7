import type { IncomingMessage } from 'node:http';
import { clientAddressOf, rememberClientAddress } from './client-address.js';
import { quotaKeyOf } from '../../authentication/quota-key.js';

function nodeRequest(remoteAddress: string, forwardedFor?: string): IncomingMessage {
  const headers = forwardedFor ? { 'x-forwarded-for': forwardedFor } : {};
  return { socket: { remoteAddress }, headers } as unknown as IncomingMessage;
}

describe('clientAddressOf', () => {
  it('is the socket peer when no framework resolved one, whatever X-Forwarded-For says', () => {
    expect(clientAddressOf(nodeRequest('127.0.0.1', '203.0.113.9'))).toBe('127.0.0.1');
  });

  it('is the address the framework resolved, read off the Node request or the adapter one', () => {
    const raw = nodeRequest('127.0.0.1');
    rememberClientAddress(raw, '203.0.113.9');
    expect(clientAddressOf(raw)).toBe('203.0.113.9');
    expect(clientAddressOf({ raw })).toBe('203.0.113.9');
  });

  it("reads an adapter request's own `ip` when nothing was remembered", () => {
    const raw = nodeRequest('127.0.0.1');
    expect(clientAddressOf({ raw, ip: '203.0.113.7' })).toBe('203.0.113.7');
  });

  it('ignores an empty or missing resolved address', () => {
    const raw = nodeRequest('127.0.0.1');
    rememberClientAddress(raw, '');
    rememberClientAddress(raw, undefined);
    expect(clientAddressOf(raw)).toBe('127.0.0.1');
  });

  it("records nothing for the socket's own address: it is the fallback already", () => {
    const raw = nodeRequest('127.0.0.1');
    rememberClientAddress(raw, '127.0.0.1');
    // Nothing recorded: the adapter request's own `ip` is read, as with nothing resolved.
    expect(clientAddressOf({ raw, ip: '203.0.113.7' })).toBe('203.0.113.7');
    expect(clientAddressOf(raw)).toBe('127.0.0.1');
  });

  it('keys anonymous quotas by it, and by the fallback without an address', () => {
    const raw = nodeRequest('127.0.0.1');
    rememberClientAddress(raw, '203.0.113.9');
    expect(quotaKeyOf(undefined, raw, 'local')).toBe('a:203.0.113.9');
    expect(quotaKeyOf(undefined, undefined, 'local')).toBe('c:local');
  });
});
