import { isHttpUrl } from './http-url.js';

describe('isHttpUrl', () => {
  it.each(['https://example.com', 'http://127.0.0.1:3000/a?b=c'])('accepts %s', (url) => {
    expect(isHttpUrl(url)).toBe(true);
  });

  it.each(['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,x', '/relative', 3])(
    'refuses %p',
    (url) => {
      expect(isHttpUrl(url)).toBe(false);
    },
  );
});
