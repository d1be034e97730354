import type { LocaleFallback } from '../http/reader.js';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/client.js';
import type { RequestContext } from '../context.js';
import type { Aggregate } from '../aggregate.js';
import type { AppError } from '../errors.js';
import type { ReaderAddress } from '../http/records.js';
import type { StandardDoc, StandardOp } from '../http/resource.js';
import type { ErrorStatus, Tag } from '../http/route.js';
import type { Keyset, Paginator } from '../paging.js';
import type { Permission } from '../permissions.js';
import { type InUse, type LiveIds, type Reference, type Use, checkUses } from './references.js';
import type { DiffKeys } from '../json-diff.js';
import { type RecordService, recordService } from './service.js';

/** An area's Backoffice permissions, which its records share. */
export interface RecordArea {
  read: Permission;
  write: Permission;
}

/**
 * A record kind, declared once: its names and kind on the wire, its aggregate (tables, parts,
 * views), schemas and errors, the references a body names, and what each interface offers of it.
 * From it come the service (`declaredService`), the Backoffice's standard routes, the Reader's
 * list and read, the Public reads, and what every write does beyond its answer: the webhook event
 * and audit entry (`kind`), the row a conditional write locks, the Surrogate-Key of a read.
 * `L` names the lookups of other areas' records its references use, `U` those of the records that
 * use it (both injected by the container: `RecordDeps`).
 */
export interface RecordDeclaration<L extends string = string, U extends string = string> {
  /** The record's kind on the wire: events `<kind>.<action>`, audit entries, `Surrogate-Key: <kind>:<id>`. */
  kind: string;
  /** Its name in sentences: `media block` / `media blocks`. */
  label: string;
  plural: string;
  /** Its name in operationIds and OpenAPI schemas: `MediaBlock` / `MediaBlocks`. */
  names: { one: string; many: string };
  area: RecordArea;
  /** The Backoffice collection path under the area's prefix: `/media-blocks`. */
  path: string;
  tags: { backoffice: Tag; reader?: Tag; public?: Tag };
  /** The record's aggregate (each has its own tables and views: typed loosely here, as the service uses it). */
  agg: { root: PgTable; parts: object };
  schemas: { item: z.ZodType; create: z.ZodType; update: z.ZodType; reader?: z.ZodType };
  notFound: () => AppError;
  /** The 409 of a unique key (a live record has this key), on a write or a restore. */
  conflict: () => AppError;
  /** The Backoffice wire shape of a row; by default the item schema's fields, in its order (`wireOf`). */
  toWire?: (row: never) => unknown;
  /** What the collection's list and writes say beyond the standard sentences. */
  notes?: Partial<Record<StandardOp, string>>;
  /** The Backoffice operations offered (all six by default). */
  only?: readonly StandardOp[];
  /** An operation's summary, description or error statuses, where the standard ones do not fit. */
  docs?: StandardDoc['docs'];
  /** The error statuses of a create and an update beyond the derived ones (404 with references, 409, by default). */
  errors?: ErrorStatus[];
  /** The references a body names, checked before any write (404 naming the field): `reference(...)` each. */
  references?: Array<(live: Record<L, LiveIds>) => Reference>;
  /** A body as it is stored, when renaming its fields is not enough. */
  prepare?: (input: Record<string, unknown>) => Record<string, unknown>;
  /** Checks of a whole update against the stored record, before writing. */
  checkUpdate?: (current: Record<string, unknown>, patch: Record<string, unknown>) => void;
  /**
   * `true`: an update is `PUT`, a full replace validated like a create (the update schema is
   * usually the create's): a field of the update schema the body leaves out takes its default,
   * null when it has none (a part's set: empty). By default an update is a `PATCH`, fields left
   * out keeping their value.
   */
  replace?: true;
  /**
   * What keeps a record from being deleted: records of other kinds that use it (`usedBy(...)`
   * each, its lookup injected as `RecordDeps.uses`). A delete answers the use's 409 while there is
   * one, checked in the delete's transaction under the record's lock; the DELETE declares 409.
   */
  usedBy?: Array<(uses: Record<U, InUse>) => Use>;
  /**
   * The order of its lists, Backoffice and Reader alike, when not newest first (`oldestFirst`:
   * a short editorial list read in the order it was made), named in its pages' cursors.
   */
  order?: { name: string; keyset: Keyset<never> };
  /** What readers see: the list (in the aggregate's view, when named) and the record by id or key. */
  reader?: {
    path: string;
    view?: string;
    /** The list's description (`true`: a list with none); no list without it. */
    list?: string | true;
    /** How readers address one record (by id unless said); `false`: readers only list them. */
    by?: ReaderAddress | false;
    /** The read's description, where the summary (`<Label> by id`) is not enough. */
    read?: string;
    /** `false`: a record without language entries, whose list takes no `locale` and answers no meta.locales. */
    locales?: false;
    /** A row as readers see it in one language, when not the reader schema's fields with `localized`. */
    toReader?: (row: never, view: { locale: string | undefined; fallback: LocaleFallback }) => unknown;
  };
  /**
   * Its deprecated Public reads, twins of the Reader's (`recordPublicRoutes`): under
   * `/api/public/<group>/v2`, the list under its media (when readers list it) and the record by id.
   */
  public?: {
    group: string;
    /** Its path under the group when not the Reader's (`/community/people` on the Reader, `/people` here). */
    path?: string;
    /** `true`: the twin of a Reader list the area declares itself (with filters or assocs of its own), beside the read's. */
    list?: true;
  };
  /**
   * Keeps revisions (CONVENTIONS, "Revisions"): each write adds one, served under the record's
   * path; `keys` names each array's entries in a diff (`{locales: 'locale'}`).
   */
  revisions?: { keys: DiffKeys };
}

/** Declares a record kind (an identity that checks the declaration's shape). */
export const defineRecord = <L extends string, U extends string, D extends RecordDeclaration<L, U>>(declaration: D): D => declaration;

/** A declared record's row, as its service answers it: its aggregate's root columns, parts and computed fields. */
export type RecordRow<D extends { agg: unknown }> = D['agg'] extends { find: (...args: never[]) => Promise<infer Row> } ? NonNullable<Row> : never;

/** The views a declared record's aggregate reads in (`published`). */
export type RecordView<D extends { agg: unknown }> = D['agg'] extends { filter: (view?: infer V) => unknown } ? Extract<V, string> : never;

const pascal = (words: string) => words.replace(/(^|\s)([a-z])/g, (_, _s: string, c: string) => c.toUpperCase());

/**
 * A record's names from its label: its kind on the wire (`media block` → `media_block`), the
 * operationIds' names (`MediaBlock`, `MediaBlocks`) and the sentences'.
 */
export const named = (label: string, plural: string) => ({
  label,
  plural,
  kind: label.replaceAll(' ', '_'),
  names: { one: pascal(label), many: pascal(plural) },
});

/**
 * What every declared record's service is made with: the database, the pager, the media's
 * languages, and other areas' lookups: `live`, which of their records exist (a record's
 * `references`), and `uses`, whether their records use one of its own (its `usedBy`), which a
 * record that declares uses must be given.
 */
export type RecordDeps<L extends string = string, U extends string = never> = {
  db: Db;
  pager: Paginator;
  assertLocales: (ctx: RequestContext, entries: Array<{ locale: string }>) => Promise<void>;
  live: Record<L, LiveIds>;
} & ([U] extends [never] ? { uses?: Record<string, InUse> } : { uses: Record<U, InUse> });

/** The fields a replace stores null for when left out: its update schema's, which must be an object's (checked at start-up). */
const replacedFields = (d: RecordDeclaration<never, never>): string[] => {
  const shape = (d.schemas.update as { shape?: unknown }).shape;
  if (!shape || typeof shape !== 'object') throw new Error(`${d.kind}: a record that replaces declares an object update schema`);
  return Object.keys(shape);
};

/**
 * The standard service of a declared record (shared/record/service.ts), its references and uses
 * bound to the container's lookups, typed by the declaration's aggregate: its reads and writes
 * answer the aggregate's rows (`RecordRow`), its reads in a view take the aggregate's views.
 */
export function declaredService<L extends string, U extends string = never, D extends RecordDeclaration<L, U> = RecordDeclaration<L, U>>(
  deps: RecordDeps<L, U>,
  d: D,
): DeclaredService<RecordRow<D>, RecordView<D>> {
  const uses = d.usedBy?.map((use) => use((deps as { uses: Record<U, InUse> }).uses));
  const service = recordService(
    { db: deps.db, pager: deps.pager },
    {
      // Each declaration's aggregate has its own tables and views: the service uses it as any aggregate.
      agg: d.agg as unknown as Aggregate<PgTable, Record<never, never>, string>,
      notFound: d.notFound,
      conflict: d.conflict,
      ...(d.references && { references: d.references.map((ref) => ref(deps.live)) }),
      ...(d.prepare && { prepare: d.prepare }),
      ...(d.checkUpdate && { checkUpdate: d.checkUpdate as never }),
      ...(d.replace && { replaces: replacedFields(d as never) }),
      ...(uses && { checkDelete: (tx: Executor, mediaId: string, id: string) => checkUses(tx, mediaId, id, uses) }),
      ...(d.order && { order: d.order.keyset as never, orderName: d.order.name }),
      assertLocales: deps.assertLocales,
    },
  );
  // The rows are the aggregate's own, which the service above reads through its loose type.
  return service as unknown as DeclaredService<RecordRow<D>, RecordView<D>>;
}

/** The services of several declared records at once, by name (an area's collections), each typed by its own aggregate. */
export function declaredServices<L extends string, M extends Record<string, RecordDeclaration<L, never>>>(
  deps: RecordDeps<L>,
  records: M,
): { [K in keyof M]: DeclaredService<RecordRow<M[K]>, RecordView<M[K]>> } {
  return Object.fromEntries(Object.entries(records).map(([name, d]) => [name, declaredService(deps, d)])) as never;
}

/** A declared record's service: by default over any declared record (the routes made from a declaration take any). */
export type DeclaredService<Row = Record<string, unknown>, V extends string = string> = RecordService<Row, V>;
