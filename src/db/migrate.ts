import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { Database } from './client.js';

export const migrationsFolder = fileURLToPath(new URL('../../migrations', import.meta.url));

/** How many migrations the database has recorded (Drizzle's journal table; 0 before the first). */
async function appliedCount(database: Database): Promise<number> {
  const rows = async (query: ReturnType<typeof sql>) => (await database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> };
  const table = await rows(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`);
  if (!table.rows[0]!.present) return 0;
  return Number((await rows(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)).rows[0]!.n);
}

/**
 * Applies the drizzle-kit SQL migrations (all pending ones in one transaction); the same files
 * run on PostgreSQL and PGlite. Answers how many it applied.
 */
export async function migrate(database: Database): Promise<number> {
  const before = await appliedCount(database);
  if (database.kind === 'postgres') {
    await migratePg(database.db as unknown as NodePgDatabase, { migrationsFolder });
  } else {
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder });
  }
  return (await appliedCount(database)) - before;
}
