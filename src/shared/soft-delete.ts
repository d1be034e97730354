import { type SQL, and, eq, isNull, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client.js';

/**
 * A record and the parts that belong to it (locale entries, profile parts, blocks).
 * Deleting the record stamps every live part with the record's own deleted_at; restoring
 * clears exactly the parts carrying that stamp, so a part deleted on its own earlier
 * stays deleted. Every soft-deletable table names its column property `deletedAt`.
 */
export interface Aggregate {
  table: PgTable;
  id: PgColumn;
  deletedAt: PgColumn;
  /** Tenancy filter: the record must belong to this media (or workspace) column. */
  owner: PgColumn;
  parts: Array<{ table: PgTable; parentId: PgColumn; deletedAt: PgColumn }>;
}

/** Soft-deletes a live record and its live parts; false when there is no such live record. */
export async function softDelete(tx: Executor, agg: Aggregate, id: string, ownerId: string): Promise<boolean> {
  const rows = await tx
    .update(agg.table)
    .set({ deletedAt: sql`now()` } as never)
    .where(and(eq(agg.id, id), eq(agg.owner, ownerId), isNull(agg.deletedAt)))
    .returning({ deletedAt: agg.deletedAt });
  const stamp = rows[0]?.deletedAt as Date | undefined;
  if (!stamp) return false;
  for (const part of agg.parts) {
    await tx
      .update(part.table)
      .set({ deletedAt: stamp } as never)
      .where(and(eq(part.parentId, id), isNull(part.deletedAt)));
  }
  return true;
}

export type RestoreOutcome = 'restored' | 'not_deleted' | 'not_found';

/** Brings back a soft-deleted record and the parts its delete took away. Idempotent. */
export async function restore(tx: Executor, agg: Aggregate, id: string, ownerId: string): Promise<RestoreOutcome> {
  const rows = await tx
    .select({ deletedAt: agg.deletedAt })
    .from(agg.table)
    .where(and(eq(agg.id, id), eq(agg.owner, ownerId)))
    .for('update');
  const row = rows[0];
  if (!row) return 'not_found';
  const stamp = row.deletedAt as Date | null;
  if (!stamp) return 'not_deleted';
  for (const part of agg.parts) {
    await tx
      .update(part.table)
      .set({ deletedAt: null } as never)
      .where(and(eq(part.parentId, id), eq(part.deletedAt, stamp)));
  }
  await tx
    .update(agg.table)
    .set({ deletedAt: null } as never)
    .where(eq(agg.id, id));
  return 'restored';
}

/** The live-rows filter, so that no read forgets it. */
export const live = (deletedAt: PgColumn): SQL => isNull(deletedAt);
