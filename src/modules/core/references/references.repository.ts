import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type ReferenceRow, references } from './references.table.js';

type Key = { provider: string; id: string };

const unexpired = or(isNull(references.expiresAt), gt(references.expiresAt, sql`now()`));

export const referencesRepository = {
  async find(db: Executor, mediaId: string, key: Key): Promise<ReferenceRow | undefined> {
    const [row] = await db
      .select()
      .from(references)
      .where(and(eq(references.mediaId, mediaId), eq(references.provider, key.provider), eq(references.id, key.id), unexpired));
    return row;
  },

  async findMany(db: Executor, mediaId: string, keys: Key[]): Promise<ReferenceRow[]> {
    const pairs = sql.join(
      keys.map((k) => sql`(${k.provider}, ${k.id}::uuid)`),
      sql`, `,
    );
    return db
      .select()
      .from(references)
      .where(and(eq(references.mediaId, mediaId), sql`(${references.provider}, ${references.id}) in (${pairs})`, unexpired));
  },

  /** Inserts, or takes the place of an expired reference; undefined when a live one exists. */
  async insert(db: Executor, values: typeof references.$inferInsert): Promise<ReferenceRow | undefined> {
    const [row] = await db
      .insert(references)
      .values(values)
      .onConflictDoUpdate({
        target: [references.mediaId, references.provider, references.id],
        set: { urn: values.urn, expiresAt: values.expiresAt ?? null, insertedAt: sql`now()`, updatedAt: sql`now()` },
        setWhere: sql`${references.expiresAt} is not null and ${references.expiresAt} <= now()`,
      })
      .returning();
    return row;
  },

  async remove(db: Executor, mediaId: string, key: Key): Promise<boolean> {
    const rows = await db
      .delete(references)
      .where(and(eq(references.mediaId, mediaId), eq(references.provider, key.provider), eq(references.id, key.id)))
      .returning({ id: references.id });
    return rows.length > 0;
  },
};

export type ReferencesRepository = typeof referencesRepository;
