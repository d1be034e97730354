import type { PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import type { RequestContext } from '../context.js';
import type { Aggregate } from '../aggregate.js';
import type { AppError } from '../errors.js';
import type { ReaderAddress } from '../http/records.js';
import type { StandardDoc, StandardOp } from '../http/resource.js';
import type { ErrorStatus, Tag } from '../http/route.js';
import type { Keyset, Paginator } from '../paging.js';
import type { Permission } from '../permissions.js';
import type { LiveIds, Reference } from './references.js';
import type { DiffKeys } from '../json-diff.js';
import { recordService } from './service.js';

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
 * `L` names the lookups of other areas' records its references use (injected by the container).
 */
export interface RecordDeclaration<L extends string = string> {
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
    /** `false`: a record without language entries, whose list takes no `locale` and answers no meta.locales. */
    locales?: false;
    /** A row as readers see it in one language, when not the reader schema's fields with `localized`. */
    toReader?: (row: never, view: { locale: string | undefined; fallback: string }) => unknown;
  };
  /**
   * Its deprecated Public reads, twins of the Reader's (`recordPublicRoutes`): under
   * `/api/public/<group>/v2`, the list under its media and the record by id.
   */
  public?: { group: string };
  /**
   * Keeps revisions (CONVENTIONS, "Revisions"): each write adds one, served under the record's
   * path; `keys` names each array's entries in a diff (`{locales: 'locale'}`).
   */
  revisions?: { keys: DiffKeys };
}

/** Declares a record kind (an identity that checks the declaration's shape). */
export const defineRecord = <L extends string, D extends RecordDeclaration<L>>(declaration: D): D => declaration;

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

/** What every declared record's service is made with: the database, the pager, the media's languages, other areas' lookups. */
export interface RecordDeps<L extends string = string> {
  db: Db;
  pager: Paginator;
  assertLocales: (ctx: RequestContext, entries: Array<{ locale: string }>) => Promise<void>;
  live: Record<L, LiveIds>;
}

/** The standard service of a declared record (shared/record/service.ts), its references bound to the container's lookups. */
export function declaredService<L extends string>(deps: RecordDeps<L>, d: RecordDeclaration<L>) {
  return recordService(
    { db: deps.db, pager: deps.pager },
    {
      agg: d.agg as unknown as Aggregate<PgTable, Record<never, never>, string>,
      notFound: d.notFound,
      conflict: d.conflict,
      ...(d.references && { references: d.references.map((ref) => ref(deps.live)) }),
      ...(d.prepare && { prepare: d.prepare }),
      ...(d.checkUpdate && { checkUpdate: d.checkUpdate as never }),
      ...(d.order && { order: d.order.keyset as never, orderName: d.order.name }),
      assertLocales: deps.assertLocales,
    },
  );
}

export type DeclaredService = ReturnType<typeof declaredService>;
