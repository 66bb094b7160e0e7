import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/*
 * Cedar is loaded only with a `policy`: an app without one never reads the WebAssembly file.
 * A child process boots an app from the sources and reports whether Cedar's module was read,
 * on the main thread or by a worker started to read it (cedar.precompiler.ts).
 */

const run = promisify(execFile);

const PROBE = `
const fs = require('node:fs');
const threads = require('node:worker_threads');
let loaded = false;
const seen = (path) => {
  if (String(path).endsWith('cedar_wasm_bg.wasm')) loaded = true;
};
for (const [target, name] of [[fs, 'readFileSync'], [fs.promises, 'readFile']]) {
  const original = target[name];
  target[name] = function (path, ...rest) {
    seen(path);
    return original.call(this, path, ...rest);
  };
}
threads.Worker = class extends threads.Worker {
  constructor(script, options) {
    seen(options?.workerData?.wasm);
    super(script, options);
  }
};
require('node:module').syncBuiltinESMExports();
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
 * The head start (cedar.precompiler.ts): `McpPolicies.cedar()` alone has a worker read and
 * compile Cedar's module, and the engine the policy layer then loads decides with that module:
 * the main thread never reads the file.
 */
const PRECOMPILE_PROBE = `
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
const reads = [];
for (const [target, name] of [[fs, 'readFileSync'], [fs.promises, 'readFile']]) {
  const original = target[name];
  target[name] = function (path, ...rest) {
    if (String(path).endsWith('cedar_wasm_bg.wasm')) reads.push(name);
    return original.call(this, path, ...rest);
  };
}
syncBuiltinESMExports();
const api = await import('./dist/index.js');
const { precompileCedar } = await import('./dist/mcp/policy/cedar/cedar.precompiler.js');
api.McpPolicies.cedar({ policies: { text: 'permit (principal, action, resource);' } });
const module = await precompileCedar();
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
  reads,
  decides: answer.type === 'success' ? answer.response.decision : answer.type,
}));
`;

/*
 * The CommonJS build (Jest's CommonJS runtime, the Nest CLI 11 default) cannot load Cedar's
 * ES-module-only `web` entry: it loads the `nodejs` entry in its place, and decides the same.
 */
const COMMONJS_PROBE = `
const api = require('./dist/cjs/index.js');
const { loadCedar } = require('./dist/cjs/mcp/policy/cedar/cedar.loader.js');
api.McpPolicies.cedar({ policies: { text: 'forbid (principal, action, resource);' } });
loadCedar().then((cedar) => {
  const answer = cedar.isAuthorized({
    principal: { type: 'User', id: 'a' }, action: { type: 'Action', id: 'x' },
    resource: { type: 'R', id: 'r' }, context: {},
    policies: { staticPolicies: 'forbid (principal, action, resource);' }, entities: [],
  });
  process.stdout.write(JSON.stringify({
    decides: answer.type === 'success' ? answer.response.decision : answer.type,
  }));
});
`;

/*
 * What the head start asks its worker to warm, in a process whose compile cache (a fresh folder)
 * holds no verdict, or one (`kept`): the validator only where a boot will likely validate
 * (validation.cache.ts, keepsVerdicts). Without a compile cache (Node before 22.8) every boot
 * validates, so the validator is always warmed.
 */
const WARM_UP_PROBE = `
import threads from 'node:worker_threads';
import { syncBuiltinESMExports } from 'node:module';
let validate;
threads.Worker = class extends threads.Worker {
  constructor(script, options) {
    validate = options?.workerData?.validate;
    super(script, options);
  }
};
syncBuiltinESMExports();
if (process.argv[1] === 'kept') {
  const { compileCacheValidation } = await import('./dist/mcp/policy/cedar/validation.cache.js');
  compileCacheValidation()?.write('0'.repeat(64), { warnings: [], policies: [] });
}
const { precompileCedar } = await import('./dist/mcp/policy/cedar/cedar.precompiler.js');
await precompileCedar();
process.stdout.write(JSON.stringify({ validate }));
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

  it('declaring a Cedar policy compiles the engine on a worker, and the engine uses its module', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--input-type=module', '-e', PRECOMPILE_PROBE],
      { cwd: process.cwd() },
    );
    expect(JSON.parse(stdout)).toEqual({
      compiled: true,
      exports: expect.arrayContaining(['validate', 'preparsePolicySet']),
      reads: [],
      decides: 'allow',
    });
  });

  it('the worker warms the validator only where no kept verdict spares a boot its validation', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'mcp-warden-warm-up-'));
    const warmUp = async (mode: 'none' | 'kept') => {
      const { stdout } = await run(
        process.execPath,
        ['--input-type=module', '-e', WARM_UP_PROBE, mode],
        { cwd: process.cwd(), env: { ...process.env, NODE_COMPILE_CACHE: cache } },
      );
      return JSON.parse(stdout) as { validate: boolean };
    };
    try {
      const caching = typeof (nodeModule as { getCompileCacheDir?: unknown }).getCompileCacheDir;
      expect(await warmUp('none')).toEqual({ validate: true });
      expect(await warmUp('kept')).toEqual({ validate: caching !== 'function' });
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('the CommonJS build loads Cedar through its CommonJS entry', async () => {
    const { stdout } = await run(process.execPath, ['-e', COMMONJS_PROBE], { cwd: process.cwd() });
    expect(JSON.parse(stdout)).toEqual({ decides: 'deny' });
  });
});
