import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { Database } from './client.js';

/**
 * `migrations/` beside the nearest package.json above this module: wherever the build put it (in
 * src/db/ under tsx, in a chunk of the bundled dist/, in the tests' bundle), that is the checkout's
 * or the image's root.
 */
function packageRoot(): URL {
  for (let dir = new URL('.', import.meta.url); ; dir = new URL('..', dir)) {
    if (existsSync(new URL('package.json', dir))) return dir;
    if (dir.pathname === '/') throw new Error(`no package.json above ${import.meta.url}`);
  }
}

export const migrationsFolder = fileURLToPath(new URL('migrations', packageRoot()));

/** How many migrations the database has recorded (Drizzle's journal table; 0 before the first). */
async function appliedCount(database: Database): Promise<number> {
  const rows = async (query: ReturnType<typeof sql>) => (await database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> };
  const table = await rows(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`);
  if (!table.rows[0]!.present) return 0;
  return Number((await rows(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)).rows[0]!.n);
}

/** When the newest migration of the folder was made (drizzle-kit's journal, `when`, ms). */
function newestMigrationAt(): number {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ when: number }> };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

/** The `created_at` drizzle recorded for the last migration it applied (the file's `when`). */
async function lastAppliedAt(database: Database): Promise<number> {
  const { rows } = (await database.db.execute(sql`select max(created_at) as at from drizzle.__drizzle_migrations`)) as unknown as {
    rows: Array<{ at: string | number | null }>;
  };
  return Number(rows[0]!.at ?? 0);
}

/**
 * Applies the drizzle-kit SQL migrations (all pending ones in one transaction); the same files
 * run on PostgreSQL and PGlite. Answers how many it applied.
 */
export async function migrate(database: Database): Promise<number> {
  const before = await appliedCount(database);
  // Drizzle's migrator reads and hashes every migration file and runs its DDL on each start; it
  // applies only the files newer than the last one recorded, so when there is none, it is skipped.
  if (before > 0 && (await lastAppliedAt(database)) >= newestMigrationAt()) return 0;
  if (database.kind === 'postgres') {
    await migratePg(database.db as unknown as NodePgDatabase, { migrationsFolder });
  } else {
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder });
  }
  return (await appliedCount(database)) - before;
}
