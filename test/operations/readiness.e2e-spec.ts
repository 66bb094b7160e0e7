import type { CuttableProxy } from '../support/cuttable-proxy.js';
import { cuttableDatabase, type CuttableDatabase } from '../support/cuttable-database.js';
import { HttpServiceChild } from '../support/http-service.js';
import { findService, describeWithService, TEST_DATABASE_URL } from '../support/services.js';
import { makeDataDir, removeDataDir } from '../support/stdio-child.js';

/*
 * /ready says whether a call can be served: 200 while the database answers,
 * 503 while it does not, 200 again once it is back. /health (liveness) stays
 * 200 throughout: the process is fine, its dependency is not.
 */

const postgres = await findService(TEST_DATABASE_URL);

describeWithService(postgres, '/ready on PostgreSQL', (databaseUrl) => {
  let database: CuttableDatabase;
  let proxy: CuttableProxy;
  let dir: string;
  let child: HttpServiceChild;

  beforeAll(async () => {
    database = await cuttableDatabase(databaseUrl);
    proxy = database.proxy;
    dir = await makeDataDir();
    child = new HttpServiceChild(dir, { DATABASE_URL: database.url });
    await child.url;
  });
  afterAll(async () => {
    await child?.dispose();
    await database?.close();
    await removeDataDir(dir);
  });

  const probe = async (path: string) => {
    const response = await fetch(new URL(path, await child.url));
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  it('flips to 503 while the database is unreachable, and back to 200 when it returns', async () => {
    const up = await probe('/ready');
    expect(up).toEqual({
      status: 200,
      body: expect.objectContaining({
        status: 'ok',
        info: { database: expect.objectContaining({ status: 'up' }) },
      }),
    });

    await proxy.cut();
    const down = await probe('/ready');
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({
      status: 'error',
      error: { database: { status: 'down' } },
    });
    expect(await probe('/health')).toEqual({ status: 200, body: { status: 'ok' } });

    await proxy.restore();
    expect((await probe('/ready')).status).toBe(200);
  });
});
