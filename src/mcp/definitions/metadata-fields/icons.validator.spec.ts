import { iconsProblem } from './icons.validator.js';

describe('iconsProblem', () => {
  it.each([
    [[{ src: 'https://example.com/i.png', mimeType: 'image/png', sizes: ['48x48', '96x96'] }]],
    [[{ src: 'http://localhost:3000/i.svg', sizes: ['any'], theme: 'dark' }]],
    [[{ src: 'data:image/svg+xml;base64,PHN2Zy8+' }]],
    [[]],
  ])('accepts %j', (icons) => {
    expect(iconsProblem(icons)).toBeUndefined();
  });

  it.each([
    ['not a list', { src: 'https://example.com/i.png' }, 'icons must be an array'],
    ['no src', [{}], 'icons[0].src: Invalid input: expected string, received undefined'],
    ['a relative src', [{ src: '/i.png' }], 'icons[0].src must be an absolute https:'],
    ['a javascript: src', [{ src: 'javascript:alert(1)' }], 'icons[0].src must be an absolute'],
    ['a data: src that is not an image', [{ src: 'data:text/html;base64,PGI+' }], 'data:image'],
    ['a data: src that is not base64', [{ src: 'data:image/svg+xml,<svg/>' }], 'data:image'],
    ['sizes as a string', [{ src: 'https://e.x/i', sizes: '48x48' }], 'icons[0].sizes:'],
    ['a size that is no WxH', [{ src: 'https://e.x/i', sizes: ['48'] }], 'sizes: "48" is neither'],
    ['an unknown theme', [{ src: 'https://e.x/i', theme: 'sepia' }], 'icons[0].theme:'],
  ])('refuses %s', (_label, icons, problem) => {
    expect(iconsProblem(icons)).toContain(problem);
  });

  it('names the icon at fault', () => {
    expect(iconsProblem([{ src: 'https://e.x/a' }, { src: 'ftp://e.x/b' }])).toMatch(/^icons\[1\]/);
  });
});
