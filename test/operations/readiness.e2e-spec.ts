import { CuttableProxy } from '../support/cuttable-proxy.js';
import { HttpServiceChild } from '../support/http-service.js';
import { createTestSchema, type TestSchema } from '../support/postgres-schema.js';
import { findService, describeWithService, TEST_DATABASE_URL } from '../support/services.js';
import { makeDataDir, removeDataDir } from '../support/stdio-child.js';

/*
 * /ready says whether a call can be served: 200 while the database answers,
 * 503 while it does not, 200 again once it is back. /health (liveness) stays
 * 200 throughout: the process is fine, its dependency is not.
 */

const postgres = await findService(TEST_DATABASE_URL);

describeWithService(postgres, '/ready on PostgreSQL', (databaseUrl) => {
  let schema: TestSchema;
  let proxy: CuttableProxy;
  let dir: string;
  let child: HttpServiceChild;

  beforeAll(async () => {
    schema = await createTestSchema(databaseUrl);
    const target = new URL(databaseUrl);
    proxy = await CuttableProxy.start(target.hostname, Number(target.port || 5432));
    dir = await makeDataDir();
    const viaProxy = new URL(schema.url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    child = new HttpServiceChild(dir, { DATABASE_URL: viaProxy.toString() });
    await child.url;
  });
  afterAll(async () => {
    await child?.dispose();
    await proxy?.close();
    await schema?.drop();
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
