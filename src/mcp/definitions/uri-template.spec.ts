import { UriTemplate } from './uri-template.js';

describe('UriTemplate', () => {
  it('matches simple variables within one segment, percent-decoded', () => {
    const template = new UriTemplate('notes://{id}/rev/{rev}');
    expect(template.variables).toEqual(['id', 'rev']);
    expect(template.match('notes://a%20b/rev/3')).toEqual({ id: 'a b', rev: '3' });
    expect(template.match('notes://a/b/rev/3')).toBeUndefined();
    expect(template.match('other://a/rev/3')).toBeUndefined();
  });

  it('matches reserved variables across slashes', () => {
    expect(new UriTemplate('file:///{+path}').match('file:///etc/hosts')).toEqual({
      path: 'etc/hosts',
    });
  });

  it('escapes the literal parts', () => {
    expect(new UriTemplate('test://x.y/{id}').match('test://xzy/1')).toBeUndefined();
  });

  it('refuses operators it does not implement', () => {
    expect(() => new UriTemplate('x://{?query}')).toThrow(/unsupported/);
    expect(() => new UriTemplate('x://{a')).toThrow(/unbalanced/);
  });

  it('does not throw on malformed percent-encoding', () => {
    expect(new UriTemplate('x://{id}').match('x://%E0%A4%A')).toBeUndefined();
  });
});
