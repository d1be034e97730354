import { type SQL, and, asc, eq, gte, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type AggregateRow, type PageFilter, aggregate } from '../../../shared/aggregate.js';
import { uniqueOr } from '../../../shared/errors.js';
import { type FilterPart, namedFilter } from '../../../shared/filters.js';
import { type Keyset, type Paginator, keyset, mostRelevantFirst } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { type EntrySearch, type SearchSort, matchedBy, rankedHits, searchDocument } from '../../../shared/search.js';
import { communityErrors } from '../community.errors.js';
import { type ProfileKind, SINGULAR } from './profiles.kinds.js';
import { publishedProfile } from './profiles.lookup.js';
import { profileParts, profileReading } from './profiles.record.js';
import {
  eventRegistrations,
  eventSchedules,
  profileCategories,
  profileLocales,
  profileMetadata,
  profiles,
} from './profiles.table.js';

export function createProfilesRepository(pager: Paginator) {
  const { categories, contact, locales, metadata } = profileParts;
  const reading = profileReading;

  /** The whole profile, of any kind: its parts are replaced through it (each kind's reads, delete and restore are its declared aggregate's). */
  const tree = aggregate(profiles, { ...reading, parts: profileParts });
  /** The profile as Reader lists serve it (spec 2.3): no description blocks. */
  const summary = aggregate(profiles, { ...reading, name: 'profile_summaries', parts: { categories, contact, locales, metadata } });

  type Summary = AggregateRow<typeof profiles, typeof summary.parts>;

  const kindFilter = (kind: ProfileKind, extra?: { name: string; where: SQL; params: Record<string, unknown> }): PageFilter => ({
    name: `${kind}${extra ? `_${extra.name}` : ''}`,
    where: sql`${profiles.kind} = ${sql.raw(`'${SINGULAR[kind]}'`)}${extra ? sql` and ${extra.where}` : sql``}`,
    ...(extra && { params: extra.params }),
  });

  const readerFilter = (f: { categoryIds?: string[] | undefined; profileTypeIds?: string[] | undefined }) => {
    const parts: FilterPart[] = [];
    if (f.categoryIds?.length) {
      const inCategory = sql`exists (select 1 from ${profileCategories} where ${profileCategories.profileId} = ${profiles.id}
          and ${profileCategories.categoryId} = any(${sql.placeholder('f_c')}::uuid[]))`;
      parts.push(['c', inCategory, f.categoryIds]);
    }
    if (f.profileTypeIds?.length) parts.push(['t', sql`${profiles.profileTypeId} = any(${sql.placeholder('f_t')}::uuid[])`, f.profileTypeIds]);
    return namedFilter(parts);
  };

  const searchColumns = {
    mediaId: profileLocales.mediaId,
    id: profileLocales.id,
    insertedAt: profileLocales.insertedAt,
    document: profileLocales.search,
    config: profileLocales.searchConfig,
    title: profileLocales.nameText,
  };

  /** A search of the profiles' language entries in `configs`, over the placeholders `q` and `owner`. */
  const entrySearch = (configs: readonly string[]): EntrySearch => ({
    entries: profileLocales,
    parent: profileLocales.profileId,
    deletedAt: profileLocales.deletedAt,
    columns: searchColumns,
    q: sql.placeholder('q'),
    mediaId: sql.placeholder('owner'),
    configs,
  });

  // A search's SQL depends on the media's search configurations only (`q` and the media are
  // placeholders): built once per set of configurations, not per request.
  const searches = new Map<string, { hits: ReturnType<typeof rankedHits>; order: Keyset<Summary & { rank: number }>; matched: SQL }>();
  const searchOf = (configs: string[]) => {
    const key = configs.join('_');
    let found = searches.get(key);
    if (!found) {
      const hits = rankedHits({ ...entrySearch(configs), root: profiles, rootId: profiles.id });
      found = { hits, order: mostRelevantFirst<Summary & { rank: number }>(hits.rank, hits.id), matched: matchedBy(entrySearch(configs), sql`${profiles.id}`) };
      searches.set(key, found);
    }
    return found;
  };

  return {
    tree,
    summary,

    summaries: (db: Executor, mediaId: string, ids: string[]) => summary.findMany(db, ids, mediaId, 'published'),

    /** Published profiles of a kind, newest first, filtered by categories and profile types (any of each). */
    listPublished(db: Executor, mediaId: string, kind: ProfileKind, query: PagingQuery, filters: { categoryIds?: string[] | undefined; profileTypeIds?: string[] | undefined }) {
      const extra = readerFilter(filters);
      return summary.page(pager, db, mediaId, query, { view: 'published', filter: kindFilter(kind, extra) });
    },

    /**
     * Published profiles of a kind matching `q`, most relevant first: full text on names, summary
     * and metadata values per language, trigram similarity on names; hits come from the search
     * indexes and read their profile by primary key.
     */
    search(
      db: Executor,
      mediaId: string,
      kind: ProfileKind,
      query: PagingQuery,
      q: string,
      configs: string[],
      filters: { categoryIds?: string[] | undefined; profileTypeIds?: string[] | undefined },
      sort: SearchSort = 'relevance',
    ) {
      const extra = readerFilter(filters);
      const { hits, order, matched } = searchOf(configs);
      const name = extra?.name ?? 'all';
      if (sort === 'newest') {
        // The Reader list's own order and index, the match a filter of it.
        const where = extra ? sql`${matched} and ${extra.where}` : matched;
        const filter = kindFilter(kind, { name: `search_${configs.join('_')}_${name}`, where, params: { ...(extra?.params ?? {}), q } });
        return summary.page(pager, db, mediaId, query, { view: 'published', filter: { ...filter, customPlans: true } });
      }
      return pager.page(
        {
          select: () => db.select({ ...summary.columns, rank: sql<number>`${hits.rank}`.as('rank') }).from(hits.source),
          keyset: order,
          scope: `profiles:search:${kind}:${mediaId}:${JSON.stringify([q, configs, name, extra?.params ?? {}])}`,
          where: () =>
            and(
              sql`${profiles.mediaId} = ${sql.placeholder('owner')}`,
              sql`${profiles.kind} = ${sql.raw(`'${SINGULAR[kind]}'`)}`,
              summary.filter('published'),
              extra?.where,
            ),
          prepared: {
            executor: db,
            name: `profiles_search_${kind}_${configs.join('_')}_${name}`,
            params: { owner: mediaId, q, ...(extra?.params ?? {}) },
            rowsAsSelected: true,
            customPlans: true,
          },
        },
        query,
      );
    },

    async insert(db: Executor, values: typeof profiles.$inferInsert): Promise<string> {
      const [row] = await db.insert(profiles).values(values).returning({ id: profiles.id });
      return row!.id;
    },

    async update(db: Executor, id: string, values: Partial<typeof profiles.$inferInsert>): Promise<void> {
      await db
        .update(profiles)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(profiles.id, id));
    },

    /**
     * Rebuilds the search entries of a profile's live languages: its names (A), summary (B) and
     * metadata values (C) in each language's configuration, and the names for trigram matching.
     */
    async refreshSearch(db: Executor, id: string): Promise<void> {
      const names = sql`(select concat_ws(' ', p.first_name, p.last_name, p.other_name, p.name, p.legal_name) from ${profiles} p where p.id = ${profileLocales.profileId})`;
      const values = sql`(select string_agg(m.value, ' ' order by m.position) from ${profileMetadata} m where m.profile_id = ${profileLocales.profileId})`;
      const document = searchDocument(sql`${profileLocales.searchConfig}::regconfig`, { a: names, b: profileLocales.summaryText, c: values });
      await db.execute(
        sql`update ${profileLocales} set ${sql.identifier(profileLocales.nameText.name)} = coalesce(${names}, ''),
            ${sql.identifier(profileLocales.search.name)} = ${document}
            where ${profileLocales.profileId} = ${id} and ${profileLocales.deletedAt} is null`,
      );
    },

    /** The media's events with a schedule meeting `from`..`to`, published ones only when asked. */
    async schedulesIn(db: Executor, mediaId: string, from: Date, to: Date, published: boolean) {
      return db
        .select({
          id: eventSchedules.id,
          eventId: eventSchedules.eventId,
          kind: eventSchedules.kind,
          startsAt: eventSchedules.startsAt,
          endsAt: eventSchedules.endsAt,
          startsLocal: eventSchedules.startsLocal,
          rrule: eventSchedules.rrule,
          durationMinutes: eventSchedules.durationMinutes,
          timeZone: profiles.timeZone,
        })
        .from(eventSchedules)
        .innerJoin(profiles, eq(profiles.id, eventSchedules.eventId))
        .where(
          and(
            eq(profiles.mediaId, mediaId),
            eq(profiles.kind, 'event'),
            isNull(profiles.deletedAt),
            published ? publishedProfile : undefined,
            lt(eventSchedules.firstAt, to),
            or(isNull(eventSchedules.lastAt), gte(eventSchedules.lastAt, from)),
          ),
        )
        .orderBy(asc(eventSchedules.eventId), asc(eventSchedules.position))
        .limit(1000);
    },

    /** Locks a published, live event of the media for the registration that follows. */
    async lockPublishedEvent(tx: Executor, mediaId: string, id: string) {
      const [row] = await tx
        .select({ id: profiles.id, capacity: profiles.capacity, registrationOpen: profiles.registrationOpen })
        .from(profiles)
        .where(and(eq(profiles.id, id), eq(profiles.mediaId, mediaId), eq(profiles.kind, 'event'), isNull(profiles.deletedAt), publishedProfile))
        .for('update');
      return row;
    },

    async registration(db: Executor, eventId: string, reader: string) {
      const [row] = await db
        .select()
        .from(eventRegistrations)
        .where(and(eq(eventRegistrations.eventId, eventId), eq(eventRegistrations.reader, reader)));
      return row;
    },

    async registrations(db: Executor, eventId: string): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(eventRegistrations).where(eq(eventRegistrations.eventId, eventId));
      return Number(row!.n);
    },

    async register(db: Executor, values: typeof eventRegistrations.$inferInsert) {
      const [row] = await uniqueOr(db.insert(eventRegistrations).values(values).returning(), communityErrors.profileConflict);
      return row!;
    },

    async unregister(db: Executor, eventId: string, reader: string): Promise<void> {
      await db.delete(eventRegistrations).where(and(eq(eventRegistrations.eventId, eventId), eq(eventRegistrations.reader, reader)));
    },

    /** The listed participants of an event by display name, and how many registered in all. */
    async participants(db: Executor, eventId: string, query: PagingQuery) {
      type Row = { id: string; displayName: string };
      const page = await pager.page<Row>(
        {
          select: db.select({ id: eventRegistrations.id, displayName: sql<string>`${eventRegistrations.displayName}`.as('display_name') }).from(eventRegistrations) as never,
          keyset: keyset<Row>([{ expr: eventRegistrations.displayName, type: 'text', dir: 'asc', of: (r) => r.displayName }], eventRegistrations.id),
          scope: `participants:${eventId}`,
          where: and(eq(eventRegistrations.eventId, eventId), sql`${eventRegistrations.listed}`, sql`${eventRegistrations.displayName} is not null`),
        },
        query,
      );
      return { page, total: await this.registrations(db, eventId) };
    },
  };
}

export type ProfilesRepository = ReturnType<typeof createProfilesRepository>;
export type ProfileSummary = AggregateRow<typeof profiles, ProfilesRepository['summary']['parts']>;
export type ProfileTree = AggregateRow<typeof profiles, ProfilesRepository['tree']['parts']>;
