import { describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { AGAINST, twinsOf } from './against.mjs';
import { serversFor } from './catalog.mjs';
import { table } from './report.mjs';

const root = '/repo';
const servers = [
  {
    id: 'bare-http',
    label: 'bare node:http',
    role: 'bare',
    transport: 'http',
    script: '/repo/bench/servers/bare-http.mjs',
  },
  {
    id: 'warden-http',
    label: 'mcp-warden',
    transport: 'http',
    script: '/repo/bench/servers/warden-http.mjs',
  },
  {
    id: 'warden-http-bundled',
    label: 'mcp-warden (bundled)',
    transport: 'http',
    script: '/repo/bench/servers/warden-http.mjs',
    bundle: '/repo/bench/servers/warden-http.mjs',
    dedicated: true,
  },
];

describe('--against', () => {
  it('leaves the SDK servers alone, baselines or not', () => {
    const sdk = {
      id: 'sdk2-modern-http',
      label: 'sdk-2.x (2026-07-28)',
      transport: 'http',
      script: '/repo/bench/servers/sdk2-modern-http.mjs',
    };
    expect(twinsOf([sdk], root, '/tmp/ref', 'v1')).toEqual([]);
  });

  it('twins every row of our own code, not the baselines, pointed at the ref’s checkout', () => {
    const twins = twinsOf(servers, root, '/tmp/ref', 'main~1');
    expect(
      twins.map((twin) => [twin.id, twin.label, twin.twinOf, twin.root, twin.script, twin.bundle]),
    ).toEqual([
      [
        'warden-http@against',
        'mcp-warden @ main~1',
        'warden-http',
        '/tmp/ref',
        '/tmp/ref/bench/servers/warden-http.mjs',
        undefined,
      ],
      [
        'warden-http-bundled@against',
        'mcp-warden (bundled) @ main~1',
        'warden-http-bundled',
        '/tmp/ref',
        '/tmp/ref/bench/servers/warden-http.mjs',
        '/tmp/ref/bench/servers/warden-http.mjs',
      ],
    ]);
  });

  it('gives a twin that keeps data a data directory of its own', () => {
    const dataDir = mkdtempSync(join(os.tmpdir(), 'against-spec-'));
    try {
      const service = {
        id: 'service-http',
        label: 'notes service',
        transport: 'http',
        script: '/repo/dist/app/main.js',
        env: { DATA_DIR: dataDir },
      };
      const [twin] = twinsOf([service], root, '/tmp/ref', 'v1');
      expect(twin.env.DATA_DIR).toBe(`${dataDir}${AGAINST}`);
      expect(existsSync(twin.env.DATA_DIR)).toBe(true);
      expect(service.env.DATA_DIR).toBe(dataDir);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(`${dataDir}${AGAINST}`, { recursive: true, force: true });
    }
  });

  it('runs a named row’s twin right after it, relabelled as the workload says', () => {
    const all = [...servers, ...twinsOf(servers, root, '/tmp/ref', 'v1')];
    const named = serversFor(
      { servers: ['warden-http'], labels: { 'warden-http': 'fixture' } },
      all,
    );
    expect(named.map((s) => [s.id, s.label])).toEqual([
      ['warden-http', 'fixture'],
      ['warden-http@against', 'fixture @ v1'],
    ]);
  });

  it('divides each row by its twin, rate and server CPU', () => {
    const [warden, bare] = [servers[1], servers[0]];
    const [twin] = twinsOf([warden], root, '/tmp/ref', 'v1');
    const rows = [
      {
        server: bare,
        runs: [{ rate: 2000, serverCpu: 50 }],
        median: { rate: 2000, serverCpu: 50 },
      },
      {
        server: warden,
        runs: [{ rate: 1500, serverCpu: 90 }],
        median: { rate: 1500, serverCpu: 90 },
      },
      {
        server: twin,
        runs: [{ rate: 1000, serverCpu: 120 }],
        median: { rate: 1000, serverCpu: 120 },
      },
    ];
    const metrics = [
      { key: 'rate', label: 'calls/s', short: 'calls/s', unit: '/s' },
      { key: 'serverCpu', label: 'CPU', unit: 'µs', ratio: false },
    ];
    const lines = table('t', metrics, rows, undefined, 'v1').split('\n');
    expect(lines[2]).toContain('| vs v1 (calls/s / CPU) |');
    expect(lines.find((line) => line.startsWith('| mcp-warden |'))).toMatch(
      /\| 1\.50× \/ 0\.75× \|$/,
    );
    expect(lines.find((line) => line.startsWith('| mcp-warden @ v1 |'))).toMatch(/\| — \|$/);
    expect(lines.find((line) => line.startsWith('| bare node:http |'))).toMatch(/\| — \|$/);
  });
});
