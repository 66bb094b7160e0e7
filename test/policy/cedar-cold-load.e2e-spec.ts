import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/*
 * Cedar is loaded only with a `policy`: an app without one never reads the WebAssembly file.
 * A child process boots an app from the sources and reports whether Cedar's module was read.
 */

const run = promisify(execFile);

const PROBE = `
const fs = require('node:fs');
const read = fs.readFileSync;
let loaded = false;
fs.readFileSync = function (path, ...rest) {
  if (String(path).endsWith('cedar_wasm_bg.wasm')) loaded = true;
  return read.call(this, path, ...rest);
};
(async () => {
  require('reflect-metadata');
  const { Test } = await import('@nestjs/testing');
  const api = await import('./dist/index.js');
  const withPolicy = process.argv[1] === 'policy';
  const moduleRef = await Test.createTestingModule({
    imports: [api.McpModule.forRoot({
      name: 'cold', version: '1',
      ...(withPolicy
        ? { policy: api.McpPolicies.cedar({ policies: { text: 'permit (principal, action, resource);' } }) }
        : { authorizer: api.Authorizers.allowAll(), readAuthorizer: api.Authorizers.allowAll() }),
    })],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  await app.close();
  process.stdout.write(JSON.stringify({ loaded }));
})();
`;

/*
 * The head start (cedar.precompiler.ts): `McpPolicies.cedar()` alone hands back Cedar's compiled
 * module from a worker, and the engine the policy layer then loads decides with it.
 */
const PRECOMPILE_PROBE = `
// The worker does not hold the process open (an app's server does): this timer stands in.
const open = setInterval(() => {}, 1000);
const api = await import('./dist/index.js');
const { precompileCedar } = await import('./dist/mcp/policy/cedar/cedar.precompiler.js');
api.McpPolicies.cedar({ policies: { text: 'permit (principal, action, resource);' } });
const module = await precompileCedar();
clearInterval(open);
const { loadCedar } = await import('./dist/mcp/policy/cedar/cedar.loader.js');
const cedar = await loadCedar();
const answer = cedar.isAuthorized({
  principal: { type: 'User', id: 'a' }, action: { type: 'Action', id: 'x' },
  resource: { type: 'R', id: 'r' }, context: {},
  policies: { staticPolicies: 'permit (principal, action, resource);' }, entities: [],
});
process.stdout.write(JSON.stringify({
  compiled: module instanceof WebAssembly.Module,
  exports: module ? WebAssembly.Module.exports(module).map((e) => e.name) : [],
  decides: answer.type === 'success' ? answer.response.decision : answer.type,
}));
`;

async function probe(mode: 'policy' | 'closures'): Promise<{ loaded: boolean }> {
  const { stdout } = await run(process.execPath, ['-e', PROBE, mode], { cwd: process.cwd() });
  return JSON.parse(stdout);
}

describe('loading Cedar', () => {
  it('an app without `policy` never loads Cedar', async () => {
    expect(await probe('closures')).toEqual({ loaded: false });
  });

  it('an app with `policy` loads it (the probe can see a load)', async () => {
    expect(await probe('policy')).toEqual({ loaded: true });
  });

  it('declaring a Cedar policy compiles the engine on a worker thread, before Nest boots', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--input-type=module', '-e', PRECOMPILE_PROBE],
      { cwd: process.cwd() },
    );
    expect(JSON.parse(stdout)).toEqual({
      compiled: true,
      exports: expect.arrayContaining(['validate', 'preparsePolicySet']),
      decides: 'allow',
    });
  });
});
