import { addressPrefixOf, UNPARSED_ADDRESS } from './address-prefix.js';

describe('addressPrefixOf', () => {
  it('counts an address however a proxy writes it: with a port, in another spelling', () => {
    expect(addressPrefixOf('203.0.113.1')).toBe('203.0.113.1');
    expect(addressPrefixOf('203.0.113.1:1111')).toBe('203.0.113.1');
    expect(addressPrefixOf('203.0.113.01')).toBe('203.0.113.1');
    expect(addressPrefixOf('::ffff:203.0.113.1')).toBe('203.0.113.1');
    expect(addressPrefixOf('[::ffff:203.0.113.1]:2222')).toBe('203.0.113.1');
    expect(addressPrefixOf('2001:db8::1')).toBe('2001:db8::/64');
    expect(addressPrefixOf('[2001:db8::1]:1')).toBe('2001:db8::/64');
    expect(addressPrefixOf('[2001:DB8:0:0:ffff::2]:2')).toBe('2001:db8::/64');
  });

  it('puts whatever is no IP address under one key, never one per spelling', () => {
    for (const written of ['unknown', 'foo', 'bar', '203.0.113.1:x', '[nope]:1', '']) {
      expect(addressPrefixOf(written)).toBe(UNPARSED_ADDRESS);
    }
  });
});
