import { type SQL, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.js';
import type { RequestContext } from '../../shared/context.js';
import type { FeedContent } from '../docs/index.js';
import type { PageFilter } from '../../shared/aggregate.js';
import type { AppError } from '../../shared/errors.js';
import type { Paginator } from '../../shared/paging.js';
import { recordKey } from '../../shared/schemas.js';
import { type LiveIds, type RecordDeclaration, named, reference as sharedReference } from '../../shared/record/index.js';

/** A record's key: lower-case letters, digits, - and _, unique among the media's live records of its kind. */
export const keyInput = recordKey.describe('Stable handle, unique among the live records of this kind in the media');

/** What the publisher's collections check their references against (injected by the container). */
export interface PublisherDeps {
  db: Db;
  pager: Paginator;
  assertLocales: (ctx: RequestContext, entries: Array<{ locale: string }>) => Promise<void>;
  /** Live ids among `ids` of a kind of the media's records (community profiles, contents, statuses, images). */
  live: Record<PublisherLookup, LiveIds>;
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

/** The lookups of other areas' records that publisher records name (injected by the container). */
export type PublisherLookup = 'organizations' | 'events' | 'projects' | 'people' | 'contents' | 'templates' | 'categories';

/** A publisher record kind: every one is a declared record. */
export type PublisherRecord = RecordDeclaration<PublisherLookup>;

const SINGULAR: Record<PublisherLookup, string> = {
  organizations: 'organization',
  events: 'event',
  projects: 'project',
  people: 'person',
  contents: 'content',
  templates: 'template',
  categories: 'category',
};

/**
 * A reference to a live record of another area, by the lookup the container injects: the body
 * field (`organization_id` by default; `entries[].profile_id` in a part) and its 404 (`organization_not_found`).
 */
export const reference = (lookup: PublisherLookup, field?: string) => sharedReference(lookup, SINGULAR[lookup], field);

/**
 * What every publisher record declares alike: its names (from its label), the publisher's
 * permissions, its Backoffice path under /publisher/v2, its OpenAPI tags and its two errors.
 */
export function publisherRecord(path: string, label: string, plural: string, errors: { notFound: () => AppError; conflict: () => AppError }) {
  const names = named(label, plural);
  const title = names.names.many.replace(/([a-z])([A-Z])/g, '$1 $2');
  return {
    ...names,
    path,
    area: { read: 'publisher:read', write: 'publisher:write' } as const,
    tags: {
      backoffice: { name: `Publisher: ${title}`, description: `The media's ${plural}.` },
      reader: { name: `Reader: ${title}`, description: `The media's ${plural} as readers see them.` },
    },
    ...errors,
  };
}

/** Records of one organization (`organization_id`), the filter of an organization's Public lists. */
export const ofOrganization =
  (d: PublisherRecord) =>
  (params: Record<string, string>): PageFilter => ({
    name: 'organization',
    where: sql`${(d.agg.root as unknown as Record<string, SQL>).organizationId} = ${sql.placeholder('organization')}`,
    params: { organization: params.id },
  });
