import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../setup/app.js';
import { onConnection } from '../setup/global-setup.js';
import { type SeededMedia, client, createCategory, seedMedia } from '../setup/factories.js';

// Only PostgreSQL has server connections to lose; PGlite runs in the process.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(!onPostgres)('database connections dropped by the server', () => {
  let ctx: TestContext;
  let media: SeededMedia;

  beforeAll(async () => {
    ctx = await createTestApp();
    media = await seedMedia(ctx.app);
  });
  afterAll(() => ctx?.close());

  it('keeps the process alive and serves again once the server is back', async () => {
    const api = client(ctx.app, media.keys.editor);
    await createCategory(api);
    expect((await api.get('/core/v2/categories')).statusCode).toBe(200);

    // What a PostgreSQL restart does to the pool's idle connections.
    const pool = ctx.database.pool!;
    const { rows } = await pool.query<{ db: string }>('select current_database() as db');
    const killed = await onConnection(
      process.env.TEST_DATABASE_URL!,
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [rows[0]!.db],
    );
    expect(killed.rowCount).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));

    const after = await api.get('/core/v2/categories');
    expect(after.statusCode).toBe(200);
    expect(after.json().data.length).toBe(1);
    expect((await ctx.app.inject({ method: 'GET', url: '/ready' })).json()).toEqual({ status: 'ok' });
  });
});
