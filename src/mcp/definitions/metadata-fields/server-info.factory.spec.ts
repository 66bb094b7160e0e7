import { McpDefinitionError } from '../registry.errors.js';
import { buildServerInfo } from './server-info.factory.js';

describe('buildServerInfo', () => {
  it('is name and version alone by default', () => {
    expect(buildServerInfo({ name: 's', version: '1' })).toEqual({ name: 's', version: '1' });
  });

  it('adds the display fields that are set, frozen', () => {
    const info = buildServerInfo({
      name: 's',
      version: '1',
      title: 'S',
      description: 'Does things',
      icons: [{ src: 'https://example.com/s.png', theme: 'dark' }],
      websiteUrl: 'https://example.com',
    });
    expect(info).toEqual({
      name: 's',
      version: '1',
      title: 'S',
      description: 'Does things',
      icons: [{ src: 'https://example.com/s.png', theme: 'dark' }],
      websiteUrl: 'https://example.com',
    });
    expect(Object.isFrozen(info)).toBe(true);
  });

  it.each([
    [{ icons: [{ src: 'javascript:void 0' }] }, /icons\[0\]\.src/],
    [{ websiteUrl: 'example.com' }, /websiteUrl must be an https: or http: URL/],
    [{ title: 7 }, /title must be a string/],
  ])('fails the boot on %j', (extra, problem) => {
    const build = () => buildServerInfo({ name: 's', version: '1', ...(extra as object) });
    expect(build).toThrow(McpDefinitionError);
    expect(build).toThrow(problem);
  });
});
