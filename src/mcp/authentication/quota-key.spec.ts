import type { IncomingMessage } from 'node:http';
import { IPV6_QUOTA_PREFIX_BITS, UNPARSED_ADDRESS, addressPrefixOf } from './address-prefix.js';
import { quotaKeyOf } from './quota-key.js';

/** A Node request from `remoteAddress`, as the socket (or a trusting framework) reports it. */
function from(remoteAddress: string): IncomingMessage {
  return { socket: { remoteAddress }, headers: {} } as unknown as IncomingMessage;
}

const anonymous = (address: string): string => quotaKeyOf(undefined, from(address), 'local');

describe('quotaKeyOf', () => {
  it('keys an authenticated caller by issuer and subject, wherever it connects from', () => {
    const alice = { subject: 'alice', issuer: 'https://a', scopes: [], claims: {} };
    expect(quotaKeyOf(alice, from('2001:db8::1'), 'local')).toBe('p:https://a\u0000alice');
    expect(quotaKeyOf(alice, from('2001:db8::1'), 'local')).toBe(
      quotaKeyOf(alice, from('203.0.113.1'), 'local'),
    );
  });

  it('keys an anonymous IPv4 caller by its address, and one with no address by the fallback', () => {
    expect(anonymous('203.0.113.1')).toBe('a:203.0.113.1');
    expect(anonymous('203.0.113.1')).not.toBe(anonymous('203.0.113.2'));
    expect(quotaKeyOf(undefined, undefined, 'local')).toBe('c:local');
  });

  it('keys an anonymous IPv6 caller by its /64: one holder cannot pick a budget per address', () => {
    expect(IPV6_QUOTA_PREFIX_BITS).toBe(64);
    expect(anonymous('2001:db8::1')).toBe('a:2001:db8::/64');
    for (const sibling of ['2001:db8::2', '2001:db8::ffff:ffff:ffff:ffff', '2001:db8:0:0:1::3']) {
      expect(anonymous(sibling)).toBe(anonymous('2001:db8::1'));
    }
    expect(anonymous('2001:db8:0:1::1')).toBe('a:2001:db8:0:1::/64');
    expect(anonymous('2001:db9::1')).not.toBe(anonymous('2001:db8::1'));
  });

  it('shares an IPv4-mapped IPv6 caller with its IPv4 address, however it is written', () => {
    for (const mapped of [
      '::ffff:203.0.113.5',
      '::FFFF:203.0.113.5',
      '0:0:0:0:0:ffff:203.0.113.5',
      '::ffff:cb00:7105',
      '::ffff:203.0.113.5%eth0',
    ]) {
      expect(anonymous(mapped)).toBe('a:203.0.113.5');
    }
  });
});

describe('addressPrefixOf', () => {
  it('reads every spelling of one /64 alike: case, leading zeros, `::`, zone ids', () => {
    for (const spelling of [
      '2001:db8::1',
      '2001:DB8::1',
      '2001:0db8:0000:0000:0000:0000:0000:0001',
      '2001:db8:0:0:0:0:0:1',
      '2001:db8::',
    ]) {
      expect(addressPrefixOf(spelling)).toBe('2001:db8::/64');
    }
    expect(addressPrefixOf('fe80::1%eth0')).toBe('fe80::/64');
    expect(addressPrefixOf('1:2:3:4:5:6:7:8')).toBe('1:2:3:4::/64');
    expect(addressPrefixOf('1:2:3::4:5:6:7')).toBe('1:2:3::/64');
    expect(addressPrefixOf('::')).toBe('::/64');
    expect(addressPrefixOf('::1')).toBe('::/64');
  });

  it('reads an embedded IPv4 tail as two groups, not as an IPv4 address', () => {
    expect(addressPrefixOf('64:ff9b::203.0.113.5')).toBe('64:ff9b::/64');
    expect(addressPrefixOf('64:ff9b::1.2.3.4')).toBe(addressPrefixOf('64:ff9b::5.6.7.8'));
    // The deprecated IPv4-compatible form: read as its IPv4 address, as proxy-addr reads it.
    expect(addressPrefixOf('::203.0.113.5')).toBe('203.0.113.5');
    expect(addressPrefixOf('1:2:3:4:5:6:1.2.3.4')).toBe('1:2:3:4::/64');
  });

  it('answers a repeated address as the first time, past the bound of those it keeps', () => {
    const first = Array.from({ length: 1_500 }, (_, i) =>
      addressPrefixOf(`2001:db8:${i.toString(16)}::1`),
    );
    expect(new Set(first).size).toBe(1_500);
    const again = Array.from({ length: 1_500 }, (_, i) =>
      addressPrefixOf(`2001:db8:${i.toString(16)}::1`),
    );
    expect(again).toEqual(first);
    expect(addressPrefixOf('2001:db8:5dc::9')).toBe('2001:db8:5dc::/64');
  });

  it('counts an address however a proxy writes it: with a port, in another spelling', () => {
    expect(addressPrefixOf('203.0.113.5')).toBe('203.0.113.5');
    expect(addressPrefixOf('203.0.113.5:1111')).toBe('203.0.113.5');
    expect(addressPrefixOf('203.0.113.05')).toBe('203.0.113.5');
    expect(addressPrefixOf('203.0.113.05:1111')).toBe('203.0.113.5');
    expect(addressPrefixOf('[::ffff:203.0.113.5]:2222')).toBe('203.0.113.5');
    expect(addressPrefixOf('[2001:db8::1]:1')).toBe('2001:db8::/64');
    expect(addressPrefixOf('[2001:DB8:0:0:ffff::2]:2')).toBe('2001:db8::/64');
  });

  it('puts whatever is no IP address under one key, never one per spelling', () => {
    for (const written of [
      'not an address',
      'unknown',
      '::ffff:not-ipv4',
      '2001:db8::1::2',
      '203.0.113.1:x',
      '[nope]:1',
      '',
    ]) {
      expect(addressPrefixOf(written)).toBe(UNPARSED_ADDRESS);
    }
  });
});
