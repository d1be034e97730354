import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Executor } from '../../db/client.js';
import type { FeedContent } from '../docs/index.js';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Aggregate, PageFilter, PartDefs } from '../../shared/aggregate.js';
import type { AppError } from '../../shared/errors.js';
import { type ReaderAddress, readerRecordRoutes, recordListRoute } from '../../shared/http/records.js';
import type { Lockable } from '../../shared/http/effects.js';
import { type StandardOp, backofficeResource } from '../../shared/http/resource.js';
import type { RequestContext, ZodApp } from '../../shared/http/route.js';
import { isUuid } from '../../shared/ids.js';
import type { Paginator } from '../../shared/paging.js';
import { type PagingQuery, recordKey } from '../../shared/schemas.js';
import { type Reference, recordService, wireOf, wirePlan } from '../../shared/records.js';

/** A record's key: lower-case letters, digits, - and _, unique among the media's live records of its kind. */
export const keyInput = recordKey.describe('Stable handle, unique among the live records of this kind in the media');

/** What the publisher's collections check their references against (injected by the container). */
export interface PublisherDeps {
  db: Db;
  pager: Paginator;
  assertLocales: (mediaId: string, entries: Array<{ locale: string }>) => Promise<void>;
  /** Live ids among `ids` of a kind of the media's records (community profiles, contents, statuses, images). */
  live: Record<'organizations' | 'events' | 'projects' | 'people' | 'contents' | 'templates' | 'categories', Reference['live']>;
  /** What feeds and sitemaps list, from the areas that own those records. */
  feeds: {
    contents: (db: Executor, mediaId: string, feed: { categoryIds: readonly string[]; templateIds: readonly string[]; limit: number }) => Promise<FeedContent[]>;
    contentLinks: (db: Executor, mediaId: string, page: LinkPage) => Promise<SitemapLink[]>;
    profileLinks: (db: Executor, mediaId: string, kind: ProfileKind, page: LinkPage) => Promise<SitemapLink[]>;
  };
}

export type { FeedContent };
export type ProfileKind = 'events' | 'organizations' | 'people' | 'projects';
export interface LinkPage {
  afterId?: string;
  limit: number;
  /** Only records whose canonical URL is an http(s) URL (a media without a website links no other). */
  canonicalOnly?: boolean;
}
export interface SitemapLink {
  id: string;
  canonicalUrl: string | null;
  updatedAt: string;
}

/**
 * One publisher collection, declared once: its aggregate and schemas, its errors and names,
 * the references it checks and what readers see of it. From it come the service
 * (`recordService`), the Backoffice routes under /publisher/v2 and the Reader's reads.
 */
export interface PublisherCollection {
  /** The Backoffice path segment: `menus`, `media-blocks`. */
  name: string;
  /** The record's aggregate (each has its own tables and views: typed loosely here, as `recordService` uses it). */
  agg: { root: PgTable; parts: object };
  schemas: { item: z.ZodType; reader: z.ZodType; create: z.ZodType; update: z.ZodType };
  notFound: () => AppError;
  /** The 409 of a unique key (a live record has this key). */
  conflict: () => AppError;
  names: { one: string; many: string };
  /** The record's kind on the wire (webhook events, audit entries, Surrogate-Key): `media_block`. */
  kind: string;
  label: string;
  plural: string;
  notes?: Partial<Record<StandardOp, string>>;
  /** The Backoffice operations offered (all six by default). */
  only?: readonly StandardOp[];
  /** The references a body names, checked before any write (404 naming the field): `reference(...)` each. */
  references?: Array<(live: PublisherDeps['live']) => Reference>;
  prepare?: (input: Record<string, unknown>) => Record<string, unknown>;
  checkUpdate?: (current: Record<string, unknown>, patch: Record<string, unknown>) => void;
  /** What readers see: the list (in the aggregate's view, when named) and the record by id or key. */
  reader?: {
    path: string;
    view?: string;
    list?: string;
    by?: ReaderAddress;
  };
}

const SINGULAR = { organizations: 'organization', events: 'event', projects: 'project', people: 'person', contents: 'content', templates: 'template', categories: 'category' } as const;

/**
 * A reference to a live record of another area, by the kind the container injects a lookup for:
 * the body field (`organization_id` by default; `entries[].profile_id` in a part) and its 404
 * (`organization_not_found`).
 */
export const reference =
  (kind: keyof typeof SINGULAR, field: string = `${SINGULAR[kind]}_id`) =>
  (live: PublisherDeps['live']): Reference => ({
    field,
    code: `${SINGULAR[kind]}_not_found`,
    what: field.endsWith('_ids') || field.includes('[]') ? `a ${SINGULAR[kind]}` : `the ${SINGULAR[kind]}`,
    live: live[kind],
  });

/**
 * A collection's names from its label: operationIds (`listMediaBlocks`), sentences, its kind on the
 * wire (`media_block`), and its two errors.
 */
export const named = (label: string, plural: string, errors: { notFound: () => AppError; conflict: () => AppError }) => {
  const pascal = (words: string) => words.replace(/(^|\s)([a-z])/g, (_, _s: string, c: string) => c.toUpperCase());
  return { label, plural, kind: label.replaceAll(' ', '_'), names: { one: pascal(label), many: pascal(plural) }, ...errors };
};

/** A collection's OpenAPI tags: Backoffice and Reader. */
const tagsOf = (c: PublisherCollection) => ({
  backoffice: { name: `Publisher: ${c.names.many.replace(/([a-z])([A-Z])/g, '$1 $2')}`, description: `The media's ${c.plural}.` },
  reader: { name: `Reader: ${c.names.many.replace(/([a-z])([A-Z])/g, '$1 $2')}`, description: `The media's ${c.plural} as readers see them.` },
});

export function collectionService(deps: PublisherDeps, c: PublisherCollection) {
  const agg = c.agg as unknown as Aggregate<PgTable, PartDefs, string>;
  return recordService(
    { db: deps.db, pager: deps.pager },
    {
      agg,
      notFound: c.notFound,
      conflict: c.conflict,
      ...(c.references && { references: c.references.map((ref) => ref(deps.live)) }),
      ...(c.prepare && { prepare: c.prepare }),
      ...(c.checkUpdate && { checkUpdate: c.checkUpdate as never }),
      assertLocales: deps.assertLocales,
    },
  );
}

export type CollectionService = ReturnType<typeof collectionService>;

/** The collection's Backoffice routes (`publisher:read` / `publisher:write`). */
export function collectionBackofficeRoutes(app: ZodApp, c: PublisherCollection, service: CollectionService) {
  const itemPlan = wirePlan(c.schemas.item);
  backofficeResource(app, {
    path: `/${c.name}`,
    names: c.names,
    tag: tagsOf(c).backoffice,
    item: c.schemas.item,
    map: (row) => wireOf(row, itemPlan) as never,
    read: 'publisher:read',
    write: 'publisher:write',
    kind: c.kind,
    lock: c.agg as unknown as Lockable,
  }).standard(service, {
    label: c.label,
    plural: c.plural,
    create: c.schemas.create,
    update: c.schemas.update,
    ...(c.only && { only: c.only }),
    ...(c.notes && { notes: c.notes }),
    errors: c.references ? [404, 409] : [409],
  });
}

/** The collection as readers list it (in its Reader view when it has one, the Reader's order), narrowed by a filter when given. */
const readerPage = (c: PublisherCollection, service: CollectionService) => (ctx: RequestContext, query: PagingQuery, filter?: PageFilter) =>
  service.listIn(ctx, query, c.reader?.view as never, filter);

/** Records of one organization (`organization_id`), the filter of an organization's Public lists. */
const ofOrganization = (c: PublisherCollection, organizationId: string): PageFilter => ({
  name: 'organization',
  where: sql`${(c.agg.root as unknown as Record<string, SQL>).organizationId} = ${sql.placeholder('organization')}`,
  params: { organization: organizationId },
});

/**
 * The collection's Reader list declaration (`recordListRoute`) over the same records and order,
 * for a list of another tree to take as it is under its own path: every record readers see, or
 * (`organization`) only those of the organization the path's `id` names.
 */
export function collectionListRoute(c: PublisherCollection, service: CollectionService, how: { description: string; organization?: boolean }) {
  const page = readerPage(c, service);
  return recordListRoute(
    { path: `/${c.name}`, names: c.names, plural: c.plural, tag: tagsOf(c).reader, item: c.schemas.reader, kind: c.kind },
    {
      description: how.description,
      load: (ctx, query, params) => page(ctx, query, how.organization ? ofOrganization(c, params.id!) : undefined),
    },
  );
}

/** The collection's Reader routes (`media:read`), when readers see it. */
export function collectionReaderRoutes(app: ZodApp, c: PublisherCollection, service: CollectionService) {
  const r = c.reader;
  if (!r) return;
  const view = r.view as never;
  const page = readerPage(c, service);
  readerRecordRoutes(app, {
    path: r.path,
    names: c.names,
    label: c.label,
    kind: c.kind,
    plural: c.plural,
    tag: tagsOf(c).reader,
    item: c.schemas.reader,
    ...(r.list && { list: { load: (ctx, query) => page(ctx, query), description: r.list } }),
    get: {
      by: r.by ?? 'id',
      load: (ctx, address) =>
        r.by === 'key' || (r.by === 'key_or_id' && !isUuid(address)) ? service.getByKey(ctx, address, view) : service.getIn(ctx, address, view),
    },
  });
}
