import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { AppError, type ErrorDetail } from '../errors.js';

/**
 * A reference from a record to another live record of the same media: the body field naming it
 * (`organization_id`; a list `category_ids`; in a part's entries `entries[].profile_id`) and
 * the owner of those records, which says which ids are live.
 */
export interface Reference {
  field: string;
  code: `${string}_not_found`;
  what: string;
  live: LiveIds;
}

/**
 * The one shape in which an area tells another which of its records exist: the ids among `ids`
 * that are live records of the media (in the view the owner decides: published, for a reader).
 */
export type LiveIds = (db: Executor, mediaId: string, ids: string[]) => Promise<Set<string>>;

/**
 * The other way round: whether live records of the area that answers use a record of another
 * (live ads in an ad category), the one shape in which an area tells another that one of its
 * records is still needed.
 */
export type InUse = (db: Executor, mediaId: string, id: string) => Promise<boolean>;

/** A use by another kind's records that keeps a record from being deleted: the owner's lookup, and the 409 a delete answers while there is one. */
export interface Use {
  inUse: InUse;
  error: () => AppError;
}

/**
 * A use by records of another kind, by the name of the lookup the container injects (`ads`,
 * `RecordDeps.uses`), with the 409 a delete answers while there is one (`ad_category_in_use`).
 */
export const usedBy =
  <U extends string>(lookup: U, error: () => AppError) =>
  (uses: Record<U, InUse>): Use => ({ inUse: uses[lookup], error });

/** 409 (the use's error) when a use keeps the record: run in the delete's transaction, the record locked. */
export async function checkUses(db: Executor, mediaId: string, id: string, list: readonly Use[]) {
  for (const use of list) if (await use.inUse(db, mediaId, id)) throw use.error();
}

/** The ids among `ids` that `live` does not know, in their order: a check's answer. */
export const missingIds = async (live: LiveIds, db: Executor, mediaId: string, ids: string[]): Promise<string[]> => {
  if (ids.length === 0) return [];
  const found = await live(db, mediaId, ids);
  return ids.filter((id) => !found.has(id));
};

/**
 * A reference to a live record of another kind, by the name of the lookup the container injects
 * (`organizations`), its record's singular (`organization`): the body field (`organization_id` by
 * default; `entries[].profile_id` in a part) and its 404 (`organization_not_found`).
 */
export const reference =
  <L extends string>(lookup: L, singular: string, field: string = `${singular}_id`) =>
  (live: Record<L, LiveIds>): Reference => ({
    field,
    code: `${singular}_not_found`,
    what: field.endsWith('_ids') || field.includes('[]') ? `a ${singular}` : `the ${singular}`,
    live: live[lookup],
  });

/** The ids a body names in a reference's field, each with its path. */
function namedIds(input: Record<string, unknown>, field: string): Array<{ id: string; path: string }> {
  const [head, tail] = field.split('[].');
  const value = input[head!];
  if (value === undefined || value === null) return [];
  if (tail) {
    return (value as Array<Record<string, unknown>>).flatMap((entry, i) =>
      typeof entry[tail] === 'string' ? [{ id: entry[tail], path: `${head}.${i}.${tail}` }] : [],
    );
  }
  if (Array.isArray(value)) return (value as string[]).map((id, i) => ({ id, path: `${field}.${i}` }));
  return [{ id: value as string, path: field }];
}

/** 404 naming each field whose record is not a live one of the media (references checked in order). */
export async function checkReferences(db: Executor, mediaId: string, input: Record<string, unknown>, refs: readonly Reference[]) {
  for (const ref of refs) {
    const named = namedIds(input, ref.field);
    if (named.length === 0) continue;
    const live = await ref.live(db, mediaId, [...new Set(named.map((n) => n.id))]);
    const details: ErrorDetail[] = named
      .filter((n) => !live.has(n.id))
      .map((n) => ({ path: n.path, message: 'is not a live record of this media' }));
    if (details.length > 0) throw new AppError(404, ref.code, `${ref.what} does not exist in this media`, details);
  }
}

/** The live ids among `ids` in a table with `id`, `media_id` and (when it has one) `deleted_at`: a reference's `live`. */
export const liveIdsIn =
  (table: PgTable, extra?: SQL) =>
  async (db: Executor, mediaId: string, ids: string[]): Promise<Set<string>> => {
    const cols = table as unknown as Record<string, unknown>;
    const rows = (await db.execute(
      sql`select ${cols.id} as id from ${table} where ${cols.mediaId} = ${mediaId} and ${cols.id} = any(${`{${ids.join(',')}}`}::uuid[])${
        cols.deletedAt ? sql` and ${cols.deletedAt} is null` : sql``
      }${extra ? sql` and ${extra}` : sql``}`,
    )) as unknown;
    const list = rowsOf<{ id: string }>(rows);
    return new Set(list.map((r) => r.id));
  };

