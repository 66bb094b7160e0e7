import { ESBUILD_MISSING, loadEsbuild } from './esbuild.loader.js';

describe('loadEsbuild', () => {
  it("loads the app's esbuild", async () => {
    const esbuild = await loadEsbuild();
    expect(typeof esbuild.build).toBe('function');
  });

  it.each(['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND'])(
    'says what to install when esbuild is missing (%s)',
    async (code) => {
      const missing = Object.assign(new Error("Cannot find package 'esbuild'"), { code });
      await expect(loadEsbuild(() => Promise.reject(missing))).rejects.toThrow(ESBUILD_MISSING);
      expect(ESBUILD_MISSING).toContain('npm install --save-dev esbuild');
    },
  );

  it('passes any other failure through', async () => {
    const broken = new Error('esbuild: the binary for this platform is missing');
    await expect(loadEsbuild(() => Promise.reject(broken))).rejects.toBe(broken);
  });
});
