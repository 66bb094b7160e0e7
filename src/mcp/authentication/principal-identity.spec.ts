import { hasPrincipalIdentity, isIdentityClaim, samePrincipal } from './principal-identity.js';

describe('principal identity', () => {
  it('names someone only with a non-empty string subject, and an issuer absent or like it', () => {
    expect(isIdentityClaim('alice')).toBe(true);
    for (const claim of [123, '', null, undefined, ['alice'], { sub: 'alice' }]) {
      expect(isIdentityClaim(claim)).toBe(false);
    }
    expect(hasPrincipalIdentity({ subject: 'alice' })).toBe(true);
    expect(hasPrincipalIdentity({ subject: 'alice', issuer: 'https://a' })).toBe(true);
    expect(hasPrincipalIdentity({ subject: 123 })).toBe(false);
    expect(hasPrincipalIdentity({ subject: 'alice', issuer: 7 })).toBe(false);
    expect(hasPrincipalIdentity({ subject: 'alice', issuer: '' })).toBe(false);
    expect(hasPrincipalIdentity(undefined)).toBe(false);
  });

  it('is the same person only for the same subject within the same issuer, exactly', () => {
    const alice = { subject: 'alice', issuer: 'https://a' };
    expect(samePrincipal(alice, { ...alice })).toBe(true);
    expect(samePrincipal(alice, { subject: 'alice', issuer: 'https://b' })).toBe(false);
    expect(samePrincipal(alice, { subject: 'alice' })).toBe(false);
    expect(samePrincipal(alice, { subject: 'Alice', issuer: 'https://a' })).toBe(false);
    expect(samePrincipal({ subject: 'alice' }, { subject: 'alice' })).toBe(true);
  });

  it('never matches what names nobody: 123 is not "123", and no one is not anyone', () => {
    expect(samePrincipal({ subject: 123 }, { subject: '123' })).toBe(false);
    expect(samePrincipal({ subject: 123 }, { subject: 123 })).toBe(false);
    expect(samePrincipal({}, {})).toBe(false);
    expect(samePrincipal(undefined, undefined)).toBe(false);
  });
});
