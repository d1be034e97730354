import { type FilterPart, namedFilter } from '../../../shared/filters.js';
import { type SQL, and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { PgInsertValue, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Executor } from '../../../db/client.js';
import { type AggregateRow, type Computed, type PartDefs, type ViewRef, aggregate, isoText, part } from '../../../shared/aggregate.js';
import { BLOCK_PART_COLUMNS, type BlockRow, blockComputed } from '../../../shared/blocks.js';
import { uniqueOr } from '../../../shared/errors.js';
import { type Keyset, type Listing, type Paginator, keyset, mostRelevantFirst, newestFirst } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { type EntrySearch, type SearchSort, matchedBy, rankedCandidates, rankedHits, searchDocument } from '../../../shared/search.js';
import { isPublishedStatus, resolveAssetImages } from '../../core/index.js';
import { docsErrors } from '../docs.errors.js';
import type { ContentSort } from './contents.schemas.js';
import {
  contentAuthors,
  contentBlocks,
  contentCategories,
  contentCorrections,
  contentLocales,
  contentMetadata,
  contents,
  questionVotes,
} from './contents.table.js';

/**
 * What readers may see at the instant `at` (CONVENTIONS, "Publishing"): a published status,
 * published_at reached (so a scheduled content appears at that instant with no job), not
 * archived. Deleted rows are out of every read already. The one publishing rule: read at now()
 * by every Reader read and list, at a time-travel preview's `as_of` by its reads.
 */
export const publishedAsOf = (at: SQL) => sql`${contents.isArchived} = false and ${contents.publishedAt} <= ${at}
  and ${isPublishedStatus(contents.statusId)}`;

const publishedNow = publishedAsOf(sql`now()`);

/**
 * The published_at of a write that names none: entering a published status stamps the
 * transaction's time (as Ghost and WordPress do), else the content would stay invisible to readers
 * with no hint. A set published_at is kept, and so is a missing one while the status stays published.
 */
export const publishedAtOn = {
  /** A new content in `statusId`. */
  create: (statusId: string) => sql<Date | null>`case when ${isPublishedStatus(statusId)} then now() end`,
  /** A content moving to `statusId`: the row's status is the one it leaves. */
  move: (statusId: string) =>
    sql<Date | null>`coalesce(${contents.publishedAt}, case when ${isPublishedStatus(statusId)} and not ${isPublishedStatus(contents.statusId)} then now() end)`,
};

const LOCALE_COLUMNS = [
  'id', 'locale', 'location', 'titleHtml', 'titleText', 'subtitleHtml', 'subtitleText', 'leadHtml', 'leadText',
  'seoTitle', 'seoDescription', 'visualId', 'visualType', 'visualVideo', 'deletedAt',
] as const;

/** A correction note as the Reader serves it. */
export interface CorrectionWire {
  id: string;
  inserted_at: string;
  note_html: string;
  note_text: string;
}

/**
 * A language entry's live correction notes, newest first, in their wire shape: read in the
 * content's own statement (one index probe per entry), so a page of contents reads no more statements.
 */
const correctionsOf: Computed<CorrectionWire[]> = (col) =>
  sql<CorrectionWire[]>`(select coalesce(json_agg(json_build_object('id', c.id, 'inserted_at', ${isoText(contentCorrections.insertedAt, sql`c.inserted_at`)},
      'note_html', c.note_html, 'note_text', c.note_text) order by c.inserted_at desc, c.id desc), '[]'::json)
    from ${contentCorrections} c
    where c.content_id = ${col(contentLocales.contentId)} and c.locale = ${col(contentLocales.locale)} and c.deleted_at is null)`;

const visualComputed = {
  visualImages: blockComputed({ assetImageIds: contentLocales.visualImageIds, locale: contentLocales.locale }, resolveAssetImages).images,
  corrections: correctionsOf,
};

const authorsPart = part(contentAuthors, {
  parent: contentAuthors.localeId,
  match: ['profileId'],
  position: 'position',
  columns: ['id', 'profileId'],
});

/**
 * A `related_contents` block's contents that readers may see now, in the block's order (the
 * Reader serves these; the Backoffice the ids as written). The subquery's own `contents` shadows
 * the root's, so that publishedNow reads the related content.
 */
const publishedRelated: Computed<string[]> = (col) =>
  sql<string[]>`(select coalesce(json_agg(x.id order by x.n), '[]'::json)
    from jsonb_array_elements_text(${col(contentBlocks.fields)}->'content_ids') with ordinality as x(id, n)
    where exists (select 1 from ${contents} where ${contents.id} = x.id::uuid and ${contents.deletedAt} is null and ${publishedNow}))`;

const blocksPart = part(contentBlocks, {
  parent: contentBlocks.localeId,
  match: 'id',
  position: 'position',
  columns: BLOCK_PART_COLUMNS,
  computed: { ...blockComputed(contentBlocks, resolveAssetImages), publishedContentIds: publishedRelated },
});

const categoriesPart = part(contentCategories, {
  parent: contentCategories.contentId,
  match: ['categoryId'],
  position: 'position',
  columns: ['id', 'categoryId'],
});

/** A content's language entries, with the parts a reading needs below them (authors; blocks). */
const localesWith = <P extends PartDefs>(parts: P) =>
  part(contentLocales, { parent: contentLocales.contentId, match: ['locale'], columns: LOCALE_COLUMNS, computed: visualComputed, parts });

/** What both readings of a content share: its owner, its 409 and what readers see. */
const contentReading = { owner: contents.mediaId, conflict: docsErrors.contentConflict, views: { published: publishedAsOf } };

/**
 * The whole content: language entries with their authors and blocks, categories, metadata.
 * Writes, delete and restore go through it; the Reader's by-id read serves its blocks.
 */
export const contentAggregate = aggregate(contents, {
  ...contentReading,
  parts: {
    locales: localesWith({ authors: authorsPart, blocks: blocksPart }),
    categories: categoriesPart,
    metadata: part(contentMetadata, { parent: contentMetadata.contentId, match: ['key'], position: 'position', columns: ['key', 'value'] }),
  },
});

/** The content as spec 2.7 shows it, without its blocks and metadata: the Backoffice's reads and every list. */
export const contentRecord = aggregate(contents, {
  ...contentReading,
  name: 'content_records',
  parts: {
    locales: localesWith({ authors: authorsPart }),
    categories: categoriesPart,
  },
});

export type ContentTree = AggregateRow<typeof contents, typeof contentAggregate.parts>;
export type ContentRecord = AggregateRow<typeof contents, typeof contentRecord.parts>;
export type ContentLocaleRecord = ContentRecord['locales'][number];
export type ContentBlockRow = BlockRow & { locale: string | null };

const EPOCH = '1970-01-01T00:00:00.000Z';
type Row = ContentRecord;

/** The Backoffice's sorts, newest first, each backed by an index of its own. */
const SORTS: Record<ContentSort, Keyset<Row>> = {
  inserted_at: newestFirst(contents),
  updated_at: keyset<Row>([{ expr: contents.updatedAt, type: 'timestamptz', dir: 'desc', of: (r) => r.updatedAt }], contents.id),
  published_at: keyset<Row>(
    [
      {
        expr: sql`coalesce(${contents.publishedAt}, '1970-01-01T00:00:00Z'::timestamptz)`,
        type: 'timestamptz',
        dir: 'desc',
        of: (r) => r.publishedAt ?? EPOCH,
      },
    ],
    contents.id,
  ),
};

/** The Reader's order: newest publication first. */
const READER_ORDER = keyset<Row>(
  [{ expr: contents.publishedAt, type: 'timestamptz', dir: 'desc', of: (r) => r.publishedAt }],
  contents.id,
);

export interface BackofficeFilters {
  workspaceId?: string | undefined;
  statusId?: string | undefined;
  templateId?: string | undefined;
  categoryId?: string | undefined;
  locale?: string | undefined;
  isArchived?: boolean | undefined;
  updatedSince?: Date | undefined;
}

export interface ReaderFilters {
  categoryIds?: string[] | undefined;
  templateIds?: string[] | undefined;
  /** Another module's narrowing (the contents of a magazine issue), over the content's id. */
  within?: ContentsWithin | undefined;
}

/** A filter another module puts on contents: SQL over the content's id, with named placeholders (prefix them) and a shape name. */
export interface ContentsWithin {
  name: string;
  where: (contentId: SQL) => SQL;
  params: Record<string, unknown>;
}

/**
 * A listing of contents another module keeps in its own order (a magazine section's
 * contents): SQL of a derived table `(content_id uuid, position integer)`, one row per
 * content, with named placeholders; its shape name; what binds its cursors.
 */
export interface ContentListing {
  name: string;
  /** The listing's `(content_id, position)` rows: SQL built only when its statement is prepared. */
  source: () => SQL;
  params: Record<string, unknown>;
  scope: string;
}

/** A search's order: the rank, most relevant first, then the content id. */
const rankedOrder = mostRelevantFirst<ContentRecord & { rank: number }>(sql`hits.rank`, sql`hits.hit_id`);

/** A listing's filter: the media's published contents, now or at the placeholder `as_of`. */
const listedWhere = (asOf: boolean) => () =>
  and(sql`${contents.mediaId} = ${sql.placeholder('owner')}`, contentRecord.filter('published', asOf ? contentRecord.asOfPlaceholder : undefined));

/** How a Reader read sees contents: as published now, or at a time-travel preview's instant. */
export type PublishedView = ViewRef<'published'>;

/** A prepared read's name suffix and `as_of` value for a view. */
const instantOf = (view: PublishedView) =>
  typeof view === 'string' ? { suffix: '', params: {} } : { suffix: '_asof', params: { as_of: view.asOf.toISOString() } };

/** A listing's order: its own positions, then the content id. */
const listedOrder = keyset<ContentRecord & { position: number }>(
  [{ expr: sql`listed.position`, type: 'integer', dir: 'asc', of: (r) => r.position }],
  sql`listed.content_id`,
);

const hasCategory = (param: string, many: boolean) =>
  sql`exists (select 1 from ${contentCategories} where ${contentCategories.contentId} = ${contents.id}
    and ${contentCategories.categoryId} ${many ? sql`= any(${sql.placeholder(param)}::uuid[])` : sql`= ${sql.placeholder(param)}::uuid`})`;

/** The Backoffice list's filter as a prepared statement needs it (`namedFilter`): each shape prepared once. */
function backofficeFilter(f: BackofficeFilters) {
  const parts: FilterPart[] = [];
  if (f.workspaceId) parts.push(['w', sql`${contents.workspaceId} = ${sql.placeholder('f_w')}::uuid`, f.workspaceId]);
  if (f.statusId) parts.push(['s', sql`${contents.statusId} = ${sql.placeholder('f_s')}::uuid`, f.statusId]);
  if (f.templateId) parts.push(['t', sql`${contents.templateId} = ${sql.placeholder('f_t')}::uuid`, f.templateId]);
  if (f.categoryId) parts.push(['c', hasCategory('f_c', false), f.categoryId]);
  if (f.locale) {
    parts.push([
      'l',
      sql`exists (select 1 from ${contentLocales} where ${contentLocales.contentId} = ${contents.id}
        and ${contentLocales.locale} = ${sql.placeholder('f_l')} and ${contentLocales.deletedAt} is null)`,
      f.locale,
    ]);
  }
  if (f.isArchived !== undefined) parts.push(['a', sql`${contents.isArchived} = ${sql.placeholder('f_a')}::boolean`, f.isArchived]);
  if (f.updatedSince) parts.push(['u', sql`${contents.updatedAt} >= ${sql.placeholder('f_u')}::timestamptz`, f.updatedSince.toISOString()]);
  return namedFilter(parts);
}

function readerFilter(f: ReaderFilters) {
  const parts: FilterPart[] = [];
  if (f.categoryIds?.length) parts.push(['c', hasCategory('f_c', true), f.categoryIds]);
  if (f.templateIds?.length) parts.push(['t', sql`${contents.templateId} = any(${sql.placeholder('f_t')}::uuid[])`, f.templateIds]);
  const params = Object.fromEntries(parts.map(([n, , v]) => [`f_${n}`, v]));
  if (f.within) {
    parts.push([`w_${f.within.name}`, f.within.where(sql`${contents.id}`), undefined]);
    Object.assign(params, f.within.params);
  }
  return {
    name: parts.map(([n]) => n).join('') || 'all',
    where: parts.length ? sql.join(parts.map(([, s]) => s), sql` and `) : undefined,
    params,
  };
}

/** A block row with its images resolved, as the block routes answer it. */
const blockColumns = {
  id: contentBlocks.id,
  localeId: contentBlocks.localeId,
  locale: contentBlocks.locale,
  kind: contentBlocks.kind,
  position: contentBlocks.position,
  fields: contentBlocks.fields,
  assetImageIds: contentBlocks.assetImageIds,
  images: resolveAssetImages(sql`${contentBlocks.assetImageIds}`, sql`${contentBlocks.locale}`),
};

const searchColumns = {
  mediaId: contentLocales.mediaId,
  id: contentLocales.id,
  insertedAt: contentLocales.insertedAt,
  document: contentLocales.search,
  config: contentLocales.searchConfig,
  title: contentLocales.titleText,
};

/** A search of the contents' language entries in `configs`, over the placeholders `q` and `owner`. */
const entrySearch = (configs: readonly string[]): EntrySearch => ({
  entries: contentLocales,
  parent: contentLocales.contentId,
  deletedAt: contentLocales.deletedAt,
  columns: searchColumns,
  q: sql.placeholder('q'),
  mediaId: sql.placeholder('owner'),
  configs,
});

const listedWhereNow = listedWhere(false);
const listedWhereAsOf = listedWhere(true);

export function createContentsRepository(pager: Paginator) {
  // A listing's select, made once per listing name (its statement is prepared under that name): its
  // SQL is built only to prepare the statement, once per connection, and no function per request.
  type ListedSelect = Listing<Row & { position: number }>['select'];
  const listedSelects = new Map<string, ListedSelect>();
  const listedSelect = (listing: ContentListing): ListedSelect => {
    let select = listedSelects.get(listing.name);
    if (!select) {
      select = (executor: object | undefined) =>
        (executor as Executor)
          .select({ ...contentRecord.columns, position: sql<number>`listed.position`.as('position') })
          .from(sql`(${listing.source()}) as listed cross join lateral (select * from ${contents} where ${contents.id} = listed.content_id limit 1) as ${sql.identifier('contents')}`) as never;
      listedSelects.set(listing.name, select);
    }
    return select;
  };

  return {
    list(db: Executor, mediaId: string, query: PagingQuery, sort: ContentSort, filters: BackofficeFilters) {
      const filter = backofficeFilter(filters);
      return contentRecord.page(pager, db, mediaId, query, {
        order: SORTS[sort],
        orderName: sort,
        ...(filter && { filter }),
      });
    },

    listPublished(db: Executor, mediaId: string, query: PagingQuery, filters: ReaderFilters, view: PublishedView = 'published') {
      const filter = readerFilter(filters);
      return contentRecord.page(pager, db, mediaId, query, {
        view,
        order: READER_ORDER,
        orderName: 'reader',
        ...(filter.where && { filter: { name: filter.name, where: filter.where, params: filter.params } }),
      });
    },

    /**
     * A page of published contents in another module's order (`listing`): its rows in their
     * order, each reading its content by primary key (a fenced lateral, as search does), so a
     * page is one statement walking the listing's own index.
     */
    listPublishedIn(db: Executor, mediaId: string, query: PagingQuery, listing: ContentListing, view: PublishedView = 'published') {
      const at = instantOf(view);
      return pager.page(
        {
          select: listedSelect(listing),
          keyset: listedOrder,
          scope: `contents:listed:${listing.scope}:${mediaId}`,
          where: at.suffix ? listedWhereAsOf : listedWhereNow,
          prepared: {
            executor: db,
            name: `contents_listed_${listing.name}${at.suffix}`,
            params: { ...listing.params, ...at.params, owner: mediaId },
            rowsAsSelected: true,
          },
        },
        query,
      );
    },

    /**
     * The live contents whose live entries match `q` (any status), ranked among the search's
     * candidates (`rankedCandidates`): SQL of a derived table `(content_id, rank)`, over the
     * placeholders `q` and `owner` (the media), built when a statement is prepared with it.
     */
    searchHits: (configs: string[]) => (): SQL =>
      sql`(select hit_id as content_id, rank from ${rankedCandidates(entrySearch(configs))} as ranked)`,

    /** Whether a content has a live entry matching `q` (placeholders `q`, `owner`): a `newest` search's filter. */
    matchedBy: (configs: string[], contentId: SQL) => matchedBy(entrySearch(configs), contentId),

    /** The media's published contents among `ids` (in no order): one statement. */
    publishedAmong: (db: Executor, mediaId: string, ids: string[], view: PublishedView = 'published') => contentRecord.findMany(db, ids, mediaId, view),

    /**
     * A page of published contents matching `q`: by `relevance`, the best ranked among the
     * search's candidates (`rankedCandidates`), each read by primary key; by `newest`, the
     * Reader's own order walked with the match as a filter.
     */
    search(
      db: Executor,
      mediaId: string,
      query: PagingQuery,
      q: string,
      configs: string[],
      filters: ReaderFilters,
      sort: SearchSort = 'relevance',
      view: PublishedView = 'published',
    ) {
      const filter = readerFilter(filters);
      if (sort === 'newest') {
        return contentRecord.page(pager, db, mediaId, query, {
          view,
          order: READER_ORDER,
          orderName: 'reader',
          filter: {
            name: `search_${configs.join('_')}_${filter.name}`,
            where: and(matchedBy(entrySearch(configs), sql`${contents.id}`), filter.where)!,
            params: { ...filter.params, q },
            customPlans: true,
          },
        });
      }
      const at = instantOf(view);
      // Built only to prepare the statement (once per connection), like the rest of its SQL.
      const source = () => rankedHits({ ...entrySearch(configs), root: contents, rootId: contents.id }).source;
      return pager.page(
        {
          select: () => db.select({ ...contentRecord.columns, rank: sql<number>`hits.rank`.as('rank') }).from(source()),
          keyset: rankedOrder,
          // A cursor serves this search only: the same words, filters and media.
          scope: `contents:search:${mediaId}:${JSON.stringify([q, configs, filter.name, filter.params])}`,
          where: () =>
            and(
              sql`${contents.mediaId} = ${sql.placeholder('owner')}`,
              contentRecord.filter('published', at.suffix ? contentRecord.asOfPlaceholder : undefined),
              filter.where,
            ),
          prepared: {
            executor: db,
            name: `contents_search_${configs.join('_')}_${filter.name}${at.suffix}`,
            params: { owner: mediaId, q, ...filter.params, ...at.params },
            rowsAsSelected: true,
            customPlans: true,
          },
        },
        query,
      );
    },

    find: (db: Executor, mediaId: string, id: string) => contentRecord.find(db, id, mediaId),

    findTree: (db: Executor, mediaId: string, id: string, view?: PublishedView) => contentAggregate.find(db, id, mediaId, view),

    /** The media of a published content, whoever asks (a Public path names the content alone): one prepared lookup. */
    publishedOwner: (db: Executor, id: string) => contentRecord.ownerOf(db, id, 'published'),

    async insert(db: Executor, values: PgInsertValue<typeof contents>): Promise<string> {
      const [row] = await db.insert(contents).values(values).returning({ id: contents.id });
      return row!.id;
    },

    async update(db: Executor, id: string, values: PgUpdateSetSource<typeof contents>): Promise<void> {
      // updated_at always moves, so that a PATCH of locales alone also marks the content.
      await db
        .update(contents)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(contents.id, id));
    },

    /** Before a workspace transfer to `statusId` (the statement that moves it is shared): published_at as the move sets it. */
    async stampMove(db: Executor, mediaId: string, id: string, statusId: string): Promise<void> {
      await db
        .update(contents)
        .set({ publishedAt: publishedAtOn.move(statusId) })
        .where(and(eq(contents.id, id), eq(contents.mediaId, mediaId), isNull(contents.deletedAt)));
    },

    /** The live language entries of a content: id by locale. */
    async localeIds(db: Executor, contentId: string): Promise<Map<string, string>> {
      const rows = await db
        .select({ id: contentLocales.id, locale: contentLocales.locale })
        .from(contentLocales)
        .where(and(eq(contentLocales.contentId, contentId), sql`${contentLocales.deletedAt} is null`));
      return new Map(rows.map((r) => [r.locale, r.id]));
    },

    /**
     * Rebuilds the search documents of a content's live entries (or one of them): title A,
     * subtitle and lead B, the live blocks' text C, each in its language's configuration.
     */
    async refreshSearch(db: Executor, contentId: string, localeId?: string): Promise<void> {
      const body = sql`(select string_agg(${contentBlocks.searchText}, ' ' order by ${contentBlocks.position}) from ${contentBlocks}
        where ${contentBlocks.localeId} = ${contentLocales.id} and ${contentBlocks.deletedAt} is null)`;
      const standfirst = sql`concat_ws(' ', ${contentLocales.subtitleText}, ${contentLocales.leadText})`;
      const document = searchDocument(sql`${contentLocales.searchConfig}::regconfig`, { a: contentLocales.titleText, b: standfirst, c: body });
      await db.execute(
        sql`update ${contentLocales} set ${sql.identifier(contentLocales.search.name)} = ${document}
            where ${contentLocales.contentId} = ${contentId} and ${contentLocales.deletedAt} is null
            ${localeId ? sql`and ${contentLocales.id} = ${localeId}` : sql``}`,
      );
    },

    /** The live blocks of a content (of one language, when given), by language then position. */
    blocks: (db: Executor, contentId: string, locale?: string) =>
      db
        .select(blockColumns)
        .from(contentBlocks)
        .innerJoin(contentLocales, eq(contentLocales.id, contentBlocks.localeId))
        .where(
          and(
            eq(contentLocales.contentId, contentId),
            sql`${contentLocales.deletedAt} is null and ${contentBlocks.deletedAt} is null`,
            locale ? eq(contentLocales.locale, locale) : undefined,
          ),
        )
        .orderBy(asc(contentLocales.locale), asc(contentBlocks.position)),

    /** One live block of a content's live entry, or undefined. */
    async block(db: Executor, contentId: string, blockId: string) {
      const [row] = await db
        .select(blockColumns)
        .from(contentBlocks)
        .innerJoin(contentLocales, eq(contentLocales.id, contentBlocks.localeId))
        .where(
          and(
            eq(contentBlocks.id, blockId),
            eq(contentLocales.contentId, contentId),
            sql`${contentLocales.deletedAt} is null and ${contentBlocks.deletedAt} is null`,
          ),
        );
      return row;
    },

    /** The block at a position of an entry (the one just written). */
    async blockAt(db: Executor, localeId: string, position: number) {
      const [row] = await db
        .select(blockColumns)
        .from(contentBlocks)
        .where(and(eq(contentBlocks.localeId, localeId), eq(contentBlocks.position, position), sql`${contentBlocks.deletedAt} is null`));
      return row;
    },

    /** The template a content follows. */
    async templateOf(db: Executor, id: string): Promise<string> {
      const [row] = await db.select({ templateId: contents.templateId }).from(contents).where(eq(contents.id, id));
      return row!.templateId;
    },

    /** The ids of an entry's live blocks, in order. */
    async blockIds(db: Executor, localeId: string): Promise<string[]> {
      const rows = await db
        .select({ id: contentBlocks.id })
        .from(contentBlocks)
        .where(and(eq(contentBlocks.localeId, localeId), sql`${contentBlocks.deletedAt} is null`))
        .orderBy(asc(contentBlocks.position));
      return rows.map((r) => r.id);
    },

    /**
     * A live question block of a live entry of a content readers may see now (or in `view`: at a
     * time-travel preview's instant; undefined: a preview link's content, whatever its status), or undefined.
     */
    async publishedQuestion(db: Executor, mediaId: string, contentId: string, blockId: string, view: PublishedView | undefined) {
      const [row] = await db
        .select({ id: contentBlocks.id, fields: contentBlocks.fields, content: { id: contents.id, visibility: contents.visibility, productKeys: contents.productKeys } })
        .from(contentBlocks)
        .innerJoin(contentLocales, eq(contentLocales.id, contentBlocks.localeId))
        .innerJoin(contents, eq(contents.id, contentLocales.contentId))
        .where(
          and(
            eq(contentBlocks.id, blockId),
            eq(contentBlocks.kind, 'question'),
            eq(contents.id, contentId),
            eq(contents.mediaId, mediaId),
            sql`${contentBlocks.deletedAt} is null and ${contentLocales.deletedAt} is null`,
            view === undefined
              ? contentRecord.filter()
              : contentRecord.filter('published', typeof view === 'string' ? undefined : sql`${view.asOf.toISOString()}::timestamptz`),
          ),
        );
      return row;
    },

    /** Whether a content of the media is one readers may see now. */
    async isPublished(db: Executor, mediaId: string, id: string): Promise<boolean> {
      const rows = await db
        .select({ id: contents.id })
        .from(contents)
        .where(and(eq(contents.id, id), eq(contents.mediaId, mediaId), contentRecord.filter('published')));
      return rows.length > 0;
    },

    /** The ids among `ids` that are not live contents of the media. */
    async missingContents(db: Executor, mediaId: string, ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({ id: contents.id })
        .from(contents)
        .where(and(eq(contents.mediaId, mediaId), inArray(contents.id, ids), sql`${contents.deletedAt} is null`));
      const found = new Set(rows.map((r) => r.id));
      return ids.filter((id) => !found.has(id));
    },

    /** Records or replaces a reader's vote: one row per question and reader, whatever the concurrency. */
    async vote(db: Executor, values: { mediaId: string; blockId: string; voter: string; choiceId: string }): Promise<void> {
      await uniqueOr(
        db
          .insert(questionVotes)
          .values(values)
          .onConflictDoUpdate({
            target: [questionVotes.blockId, questionVotes.voter],
            set: { choiceId: values.choiceId, updatedAt: new Date() },
          }),
        docsErrors.contentConflict,
      );
    },

    /** A content's live correction notes, newest first (every language). */
    corrections: (db: Executor, contentId: string) =>
      db
        .select()
        .from(contentCorrections)
        .where(and(eq(contentCorrections.contentId, contentId), isNull(contentCorrections.deletedAt)))
        .orderBy(desc(contentCorrections.insertedAt), desc(contentCorrections.id)),

    async insertCorrection(db: Executor, values: typeof contentCorrections.$inferInsert) {
      const [row] = await db.insert(contentCorrections).values(values).returning();
      return row!;
    },

    /** Soft-deletes a live note of the content: false when it has none with this id. */
    async removeCorrection(db: Executor, contentId: string, id: string): Promise<boolean> {
      const rows = await db
        .update(contentCorrections)
        .set({ deletedAt: sql`now()` })
        .where(and(eq(contentCorrections.id, id), eq(contentCorrections.contentId, contentId), isNull(contentCorrections.deletedAt)))
        .returning({ id: contentCorrections.id });
      return rows.length > 0;
    },

    /** Votes per choice of a question. */
    async voteCounts(db: Executor, blockId: string): Promise<Map<string, number>> {
      const rows = await db
        .select({ choiceId: questionVotes.choiceId, votes: sql<number>`count(*)::int` })
        .from(questionVotes)
        .where(eq(questionVotes.blockId, blockId))
        .groupBy(questionVotes.choiceId);
      return new Map(rows.map((r) => [r.choiceId, Number(r.votes)]));
    },
  };
}

export type ContentsRepository = ReturnType<typeof createContentsRepository>;
