import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../../src/db/client.js';
import { categories, categoryLocales } from '../../src/modules/core/categories/categories.table.js';
import { workspaces } from '../../src/modules/core/tenancy/tenancy.table.js';

// Rows written straight into the tables, typed by each table's $inferInsert: deep fixtures
// and long listings take one statement per table instead of one request per row. The HTTP
// factories (factories.ts) stay the way to create the record a test is about.

type Db = Database['db'];
type CategoryInsert = typeof categories.$inferInsert;
type CategoryLocaleInsert = Omit<typeof categoryLocales.$inferInsert, 'categoryId'>;
type WorkspaceInsert = typeof workspaces.$inferInsert;

const short = () => randomUUID().slice(0, 8);

/**
 * `count` instants one millisecond apart, oldest first, from now on: newer than every row made
 * before (a tie at the first one is broken by the UUIDv7 id), so listings order them as made.
 */
const instants = (count: number) => {
  const now = Date.now();
  return Array.from({ length: count }, (_, i) => new Date(now + i));
};

/** One category with its locale entries (one English entry when none are given). */
export async function insertCategory(
  db: Db,
  row: CategoryInsert,
  locales: CategoryLocaleInsert[] = [{ locale: 'en', name: `Category ${short()}` }],
) {
  const [category] = await db.insert(categories).values(row).returning();
  const entries = locales.length
    ? await db
        .insert(categoryLocales)
        .values(locales.map((entry) => ({ ...entry, categoryId: category!.id })))
        .returning()
    : [];
  return { ...category!, locales: entries };
}

/** `count` categories of a media, oldest first, each with an entry per locale: two statements. */
export async function insertCategories(db: Db, mediaId: string, count: number, locales: string[] = ['en']) {
  const rows = await db
    .insert(categories)
    .values(instants(count).map((at) => ({ mediaId, insertedAt: at, updatedAt: at })))
    .returning();
  if (locales.length > 0) {
    await db
      .insert(categoryLocales)
      .values(rows.flatMap((row) => locales.map((locale) => ({ categoryId: row.id, locale, name: `Category ${short()}` }))));
  }
  return rows;
}

/** `count` workspaces of a media, oldest first, with unique keys: one statement. */
export async function insertWorkspaces(db: Db, mediaId: string, count: number, row: Partial<WorkspaceInsert> = {}) {
  return db
    .insert(workspaces)
    .values(instants(count).map((at, i) => ({ mediaId, key: `ws-${short()}-${i}`, name: `Workspace ${i}`, insertedAt: at, updatedAt: at, ...row })))
    .returning();
}

/** An instant well before any test ran, as the wire writes it. */
export const LONG_AGO = '2020-01-01T00:00:00.000Z';

/**
 * Moves a record's updated_at back to LONG_AGO, so that a test can see an update move it
 * (comparing with the value a moment before cannot fail when nothing moves it).
 */
export async function backdate(db: Db, table: PgTable, id: string): Promise<string> {
  const result = await db.execute(sql`update ${table} set updated_at = ${LONG_AGO}::timestamptz where id = ${id} returning id`);
  if ((result as unknown as { rows: unknown[] }).rows.length !== 1) throw new Error(`backdate: no row ${id}`);
  return LONG_AGO;
}
