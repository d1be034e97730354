import { type SQL, getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Executor } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import type { PartDef, PartDefs } from './aggregate.js';
import type { RequestContext } from './context.js';
import { uniqueOr, type AppError } from './errors.js';
import type { DiffKeys } from './json-diff.js';

/**
 * Revisions of a record kind, declared once per kind (CONVENTIONS, "Revisions"): what a revision
 * holds (the Backoffice wire shape, read by `load`), how its arrays are keyed for a diff, and the
 * aggregate whose rows a revert writes back. The Backoffice's write path (core/audit) writes one
 * revision per successful write that declares `revises` on its record effect (http/effects.ts).
 */
export interface RevisionSource {
  /** The record's kind on the wire: `content`, `issue`. */
  kind: string;
  /** The record's Backoffice wire shape with the parts served on routes of their own (`blocks`, `metadata`). */
  load(ctx: RequestContext, id: string): Promise<Record<string, unknown>>;
  /** That shape's schema: a revision's `record` and a revert's answer. */
  schema: z.ZodType;
  /** The field naming each array's entries (dotted field path → key): the diff's paths name entries by it. */
  keys: DiffKeys;
  /** The aggregate's rows: locked, read and written back. */
  rows: AggregateRows;
  /** The record's 404. */
  notFound: () => AppError;
}

/** `X-Revision-Note` on a write that adds a revision: why, in the editor's words. */
export const revisionNoteHeader = z.string().max(500).optional().describe('Why this write was made: kept with the revision it adds (at most 500 characters)');

/** The record a write adds a revision to: the record its effect names, or the one the named part belongs to. */
export interface Revises {
  source: RevisionSource;
  /** The effect's record is a part of the revised one, at this part path of its aggregate (`locales.blocks`). */
  part?: string;
  /** The revision's action when not the write's own (a revert). */
  action?: RevisionAction;
}

export type RevisionAction = 'created' | 'updated' | 'deleted' | 'restored' | 'reverted';

/** The rows of a revision: by part path (`$` the root), each row with every column as row_to_json writes it. */
export type RevisionRows = Record<string, Record<string, unknown>[]>;

/** The declaration the rows need of an aggregate (shared/aggregate.ts). */
interface AggregateShape {
  root: PgTable;
  parts: PartDefs;
  owner: PgColumn;
  conflict: () => AppError;
}

interface Level {
  path: string;
  table: PgTable;
  chain: PartDef[];
  position: PgColumn | undefined;
  deleted: PgColumn | undefined;
}

const cols = (table: PgTable) => getTableColumns(table) as Record<string, PgColumn>;
const idOf = (table: PgTable) => cols(table).id!;

/**
 * The rows of an aggregate as a revision keeps them and a revert writes them back: the root row
 * and every live part row, every column (not only the served ones), so that a revert brings the
 * tree back exactly: ids, positions, derived text and search documents included.
 */
export function aggregateRows(agg: AggregateShape) {
  const { root } = agg;
  const rootId = idOf(root);
  const rootDeleted = cols(root).deletedAt;
  // Every part, parents before children, with its path and chain from the root.
  const levels: Level[] = [];
  const walk = (parts: PartDefs, above: PartDef[], prefix: string) => {
    for (const [name, def] of Object.entries(parts)) {
      const chain = [...above, def];
      const path = `${prefix}${name}`;
      levels.push({ path, table: def.table, chain, position: def.position ? cols(def.table)[def.position] : undefined, deleted: cols(def.table).deletedAt });
      walk(def.parts, chain, `${path}.`);
    }
  };
  walk(agg.parts, [], '');

  /** The ids of a level's live rows under live parents, below the root `id`. */
  const liveIds = (level: Level, id: string): SQL => {
    let ids = sql`select ${id}::uuid`;
    for (const def of level.chain) {
      const deleted = cols(def.table).deletedAt;
      ids = sql`select ${idOf(def.table)} from ${def.table} where ${def.parent} in (${ids})${deleted ? sql` and ${deleted} is null` : sql``}`;
    }
    return ids;
  };

  const t = sql.identifier('t');
  const asJson = (table: PgTable, where: SQL) =>
    sql`(select coalesce(json_agg(row_to_json(${t}) order by ${t}.id), '[]'::json) from ${table} ${t} where ${t}.id in (${where}))`;

  /** Writes `rows` into `table`, each by its id: inserted, or every column overwritten. */
  const upsert = async (tx: Executor, table: PgTable, rows: Record<string, unknown>[]) => {
    if (rows.length === 0) return;
    const set = Object.values(cols(table))
      .filter((c) => c.name !== 'id')
      .map((c) => sql`${sql.identifier(c.name)} = excluded.${sql.identifier(c.name)}`);
    await tx.execute(
      sql`insert into ${table} select * from json_populate_recordset(null::${sql.identifier(getTableName(table))}, ${JSON.stringify(rows)}::json)
          on conflict (id) do update set ${sql.join(set, sql`, `)}`,
    );
  };

  return {
    /**
     * Locks the record's root row (live or deleted) for the rest of the transaction, so that its
     * revisions are numbered one after the other; undefined when the owner has no such record.
     */
    async lock(tx: Executor, id: string, ownerId: string): Promise<{ deletedAt: string | null } | undefined> {
      const [row] = rowsOf<{ deleted_at: string | null }>(
        await tx.execute(
          sql`select ${rootDeleted ? sql`to_char(${rootDeleted} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : sql`null`} as deleted_at
              from ${root} where ${rootId} = ${id} and ${agg.owner} = ${ownerId} for update`,
        ),
      );
      return row && { deletedAt: row.deleted_at };
    },

    /** Whether the owner has the record, live or deleted. */
    async exists(db: Executor, id: string, ownerId: string): Promise<boolean> {
      return rowsOf(await db.execute(sql`select 1 from ${root} where ${rootId} = ${id} and ${agg.owner} = ${ownerId}`)).length > 0;
    },

    /** The root id of a part row (`path` its part path), whatever its state; undefined when there is none. */
    async rootOf(db: Executor, path: string, partId: string): Promise<string | undefined> {
      const level = levels.find((l) => l.path === path);
      if (!level) throw new Error(`${getTableName(root)} has no part ${path}`);
      let up = sql`select ${partId}::uuid`;
      for (const def of [...level.chain].reverse()) up = sql`select ${def.parent} from ${def.table} where ${idOf(def.table)} in (${up})`;
      const [row] = rowsOf<{ id: string }>(await db.execute(sql`select (${up}) as id`));
      return row?.id ?? undefined;
    },

    /** SQL of the record's rows as a revision keeps them (json): the root row and every live part row. */
    snapshot(id: string): SQL {
      const fields = [sql`'$', ${asJson(root, sql`select ${id}::uuid`)}`];
      for (const level of levels) fields.push(sql`${level.path}::text, ${asJson(level.table, liveIds(level, id))}`);
      return sql`json_build_object(${sql.join(fields, sql`, `)})`;
    },

    /**
     * Makes the record's tree exactly `rows`: live parts that are not among them soft-deleted
     * (removed, where a part has no deleted_at), then every row written back by id, deleted ones
     * brought back. Run it in the write's transaction, the root locked.
     */
    async revert(tx: Executor, id: string, rows: RevisionRows): Promise<void> {
      const run = async () => {
        // Children before their parents, so that each level still sees its live parents.
        for (const level of [...levels].reverse()) {
          // One uuid[] parameter (a Postgres array literal of ids, which have no characters to quote).
          const keep = `{${(rows[level.path] ?? []).map((r) => r.id as string).join(',')}}`;
          const gone = sql`${idOf(level.table)} in (${liveIds(level, id)}) and not (${idOf(level.table)} = any(${keep}::uuid[]))`;
          await tx.execute(
            level.deleted
              ? sql`update ${level.table} set ${sql.identifier(level.deleted.name)} = now() where ${gone}`
              : sql`delete from ${level.table} where ${gone}`,
          );
        }
        // Positions are unique per parent: the kept rows move out of the way before they are written back.
        for (const level of levels) {
          if (!level.position) continue;
          const pos = sql.identifier(level.position.name);
          await tx.execute(sql`update ${level.table} set ${pos} = -1 - ${pos} where ${idOf(level.table)} in (${liveIds(level, id)}) and ${pos} >= 0`);
        }
        await upsert(tx, root, rows.$ ?? []);
        // A revert is a write: the record's updated_at moves (lists by updated_at, change feeds).
        if (cols(root).updatedAt) await tx.execute(sql`update ${root} set ${sql.identifier(cols(root).updatedAt!.name)} = now() where ${rootId} = ${id}`);
        for (const level of levels) await upsert(tx, level.table, rows[level.path] ?? []);
      };
      await uniqueOr(run(), agg.conflict);
    },
  };
}

export type AggregateRows = ReturnType<typeof aggregateRows>;
