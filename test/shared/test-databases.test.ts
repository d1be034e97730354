import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { pooledTestDatabase, testConfig } from '../setup/app.js';
import { client, createCategory, seedMedia } from '../setup/factories.js';
import { rowsOf } from '../../src/db/rows.js';

// The test kit's own promise: a pooled database is handed back in the migrated template's state,
// whatever the file before wrote: an emptied PGlite instance or PostgreSQL clone of this worker's.

const rowsPerTable = async (db: Awaited<ReturnType<typeof pooledTestDatabase>>['database']) => {
  const result = await db.db.execute(
    sql.raw(`select coalesce(jsonb_object_agg(tablename, (xpath('/row/n/text()', query_to_xml(format('select count(*) as n from %I.%I', schemaname, tablename), false, true, '')))[1]::text::int), '{}') as counts
      from pg_tables where schemaname = 'public'`),
  );
  return rowsOf<{ counts: Record<string, number> }>(result)[0]!.counts;
};

it('hands back every table empty and no queue schema, after a file wrote to many tables and one big one', async () => {
  const first = await pooledTestDatabase();
  const app = await buildApp({ config: testConfig(), database: first.database });
  await app.ready();
  const media = await seedMedia(app);
  await createCategory(client(app, media.keys.admin));
  // Past the size at which a table is truncated rather than emptied row by row (64 KB).
  await first.database.db.execute(sql`
    insert into categories (id, media_id)
    select gen_random_uuid(), ${media.mediaId} from generate_series(1, 3000)`);
  const written = await rowsPerTable(first.database);
  expect(written.categories).toBe(3001);
  expect(Object.values(written).filter((n) => n > 0).length).toBeGreaterThan(3);
  await app.close();
  await first.drop();

  const next = await pooledTestDatabase();
  try {
    const counts = await rowsPerTable(next.database);
    expect(Object.keys(counts).length).toBe(Object.keys(written).length);
    expect(Object.entries(counts).filter(([, n]) => n > 0)).toEqual([]);
    const queue = await next.database.db.execute(sql`select count(*)::int as n from pg_namespace where nspname = 'pgboss'`);
    expect(rowsOf<{ n: number }>(queue)[0]!.n).toBe(0);
  } finally {
    await next.database.close();
    await next.drop();
  }
});
