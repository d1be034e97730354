import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type AggregateRow, type Computed, aggregate, part } from '../../../shared/aggregate.js';
import type { ResolvedImage } from '../../../shared/blocks.js';
import { uniqueOr } from '../../../shared/errors.js';
import { type Keyset, type Paginator, keyset, mostRelevantFirst } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import type { SearchSort } from '../../../shared/search.js';
import { resolveAssetImages } from '../../core/index.js';
import { magazinesErrors } from '../magazines.errors.js';
import { blockSlots, issueLocales, issues, sectionBlocks, sectionContents, sectionLocales, sections } from './issues.table.js';
import { rowsOf } from '../../../db/rows.js';

// Issue → locales, sections → (locales, blocks → slots, contents): one aggregate for writes,
// delete and restore (the whole tree under one stamp), and narrower readings over the same
// tables for what each route serves.

const coverImage: Computed<ResolvedImage | null> = (col) =>
  sql<ResolvedImage | null>`(select (${resolveAssetImages(sql`array[${col(issueLocales.visualImageId)}]::uuid[]`, col(issueLocales.locale))}) -> 0)`;

const issueLocalesPart = part(issueLocales, {
  parent: issueLocales.issueId,
  match: ['locale'],
  columns: ['id', 'locale', 'name', 'descriptionHtml', 'descriptionText', 'visualType', 'visualImageId', 'deletedAt'],
  computed: {
    // The cover image with its caption in the entry's language: null when none or deleted.
    visualImage: coverImage,
  },
});

const sectionLocalesPart = part(sectionLocales, {
  parent: sectionLocales.sectionId,
  match: ['locale'],
  columns: ['id', 'locale', 'name', 'descriptionHtml', 'descriptionText', 'deletedAt'],
});

const slotsPart = part(blockSlots, {
  parent: blockSlots.blockId,
  match: 'id',
  position: 'position',
  columns: ['id', 'blockId', 'position', 'contentId', 'insertedAt', 'updatedAt'],
});

const blocksPart = part(sectionBlocks, {
  parent: sectionBlocks.sectionId,
  match: 'id',
  position: 'position',
  columns: ['id', 'sectionId', 'kind', 'position', 'settings', 'insertedAt', 'updatedAt'],
  parts: { slots: slotsPart },
});

const sectionContentsPart = part(sectionContents, { parent: sectionContents.sectionId, match: 'id', columns: ['id'] });

/** The issue as spec 2.8 shows it: its language entries. */
/** What both readings of an issue share: its owner and its 409. */
const issueReading = { owner: issues.mediaId, conflict: magazinesErrors.issueConflict };

export const issueRecord = aggregate(issues, { ...issueReading, parts: { locales: issueLocalesPart } });

/** The whole issue: what a delete stamps and a restore brings back. */
export const issueTree = aggregate(issues, {
  ...issueReading,
  name: 'issue_trees',
  parts: {
    locales: issueLocalesPart,
    sections: part(sections, {
      parent: sections.issueId,
      match: 'id',
      columns: ['id'],
      parts: { locales: sectionLocalesPart, blocks: blocksPart, contents: sectionContentsPart },
    }),
  },
});

/** A section with its language entries. */
/** What every reading of a section shares: its owner and its 409. */
const sectionReading = { owner: sections.mediaId, conflict: magazinesErrors.sectionKeyTaken };

export const sectionRecord = aggregate(sections, { ...sectionReading, parts: { locales: sectionLocalesPart } });

/** A whole section: its own delete, and its blocks and slots replaced as sets. */
export const sectionTree = aggregate(sections, {
  ...sectionReading,
  name: 'section_trees',
  parts: { locales: sectionLocalesPart, blocks: blocksPart, contents: sectionContentsPart },
});

/** A section's layout: its blocks with their slots, in one statement. */
export const sectionLayout = aggregate(sections, {
  ...sectionReading,
  name: 'section_layouts',
  columns: ['id', 'issueId'],
  parts: { blocks: blocksPart },
});

/** A section block with its slots. */
export const blockRecord = aggregate(sectionBlocks, {
  owner: sectionBlocks.mediaId,
  conflict: magazinesErrors.issueConflict,
  parts: { slots: slotsPart },
});

/** A section content entry (no parts). */
export const sectionContentRecord = aggregate(sectionContents, {
  owner: sectionContents.mediaId,
  conflict: magazinesErrors.sectionContentTaken,
  parts: {},
});

export type IssueRecord = AggregateRow<typeof issues, typeof issueRecord.parts>;
export type IssueLocaleRecord = IssueRecord['locales'][number];
export type SectionRecord = AggregateRow<typeof sections, typeof sectionRecord.parts>;
export type BlockRecord = AggregateRow<typeof sectionBlocks, typeof blockRecord.parts>;
export type SlotRecord = BlockRecord['slots'][number];
export type SectionContentRecord = AggregateRow<typeof sectionContents, typeof sectionContentRecord.parts>;

/** Sections in their issue's order. */
const SECTION_ORDER = keyset<SectionRecord>([{ expr: sections.position, type: 'integer', dir: 'asc', of: (r) => r.position }], sections.id);

/** A section's contents in position order; content_id breaks ties (unique in a section), as the Reader's page does. */
const SECTION_CONTENT_ORDER: Keyset<SectionContentRecord> = {
  keys: [{ expr: sectionContents.position, type: 'integer', dir: 'asc', of: (r) => r.position }],
  id: sectionContents.contentId,
  idOf: (r) => r.contentId,
};

/** An issue search's order: the rank, most relevant first, then the section content's id. */
const rankedSectionContents = mostRelevantFirst<SectionContentRecord & { rank: number }>(sql`hits.rank`, sectionContents.id);

export function createIssuesRepository(pager: Paginator) {
  const byParam = (name: string, where: SQL, value: string) => ({ name, where, params: { [name]: value } });
  return {
    listIssues: (db: Executor, mediaId: string, workspaceId: string, query: PagingQuery) =>
      issueRecord.page(pager, db, mediaId, query, {
        filter: byParam('f_ws', sql`${issues.workspaceId} = ${sql.placeholder('f_ws')}::uuid`, workspaceId),
      }),

    findIssue: (db: Executor, mediaId: string, id: string) => issueRecord.find(db, id, mediaId),

    async insertIssue(db: Executor, values: typeof issues.$inferInsert): Promise<string> {
      const [row] = await db.insert(issues).values(values).returning({ id: issues.id });
      return row!.id;
    },

    async updateIssue(db: Executor, id: string, values: Partial<typeof issues.$inferInsert>): Promise<void> {
      await db
        .update(issues)
        .set({ ...values, updatedAt: new Date() })
        .where(sql`${issues.id} = ${id}`);
    },

    listSections: (db: Executor, mediaId: string, issueId: string, query: PagingQuery) =>
      sectionRecord.page(pager, db, mediaId, query, {
        order: SECTION_ORDER,
        orderName: 'position',
        filter: byParam('f_issue', sql`${sections.issueId} = ${sql.placeholder('f_issue')}::uuid`, issueId),
      }),

    /** Every live section of an issue, in order (the Reader's issue names them). */
    allSections: (db: Executor, mediaId: string, issueId: string) =>
      db
        .select(sectionRecord.columns)
        .from(sections)
        .where(sql`${sections.issueId} = ${issueId} and ${sections.mediaId} = ${mediaId} and ${sectionRecord.filter()}`)
        .orderBy(sections.position, sections.id) as unknown as Promise<SectionRecord[]>,

    findSection: (db: Executor, mediaId: string, id: string) => sectionRecord.find(db, id, mediaId),

    /** The media of a live issue, whoever asks (a Public path names the issue alone): one prepared lookup. */
    issueMedia: (db: Executor, id: string) => issueRecord.ownerOf(db, id),

    /** The media of a live section, whoever asks (a Public path names the section alone): one prepared lookup. */
    sectionMedia: (db: Executor, id: string) => sectionRecord.ownerOf(db, id),

    async insertSection(db: Executor, values: typeof sections.$inferInsert): Promise<string> {
      const [row] = await uniqueOr(db.insert(sections).values(values).returning({ id: sections.id }), magazinesErrors.sectionKeyTaken);
      return row!.id;
    },

    async updateSection(db: Executor, id: string, values: Partial<typeof sections.$inferInsert>): Promise<void> {
      await uniqueOr(
        db
          .update(sections)
          .set({ ...values, updatedAt: new Date() })
          .where(sql`${sections.id} = ${id}`),
        magazinesErrors.sectionKeyTaken,
      );
    },

    /** The next free position among a parent's live rows: one past the highest. */
    async nextPosition(db: Executor, of: 'sections' | 'contents', parentId: string): Promise<number> {
      const [table, parent, position, deleted] =
        of === 'sections'
          ? [sections, sections.issueId, sections.position, sections.deletedAt]
          : [sectionContents, sectionContents.sectionId, sectionContents.position, sectionContents.deletedAt];
      const [row] = rowsOf<{ next: number }>(
        await db.execute(sql`select coalesce(max(${position}) + 1, 0)::int as next from ${table} where ${parent} = ${parentId} and ${deleted} is null`),
      );
      return Number(row?.next ?? 0);
    },

    layout: (db: Executor, mediaId: string, sectionId: string) => sectionLayout.find(db, sectionId, mediaId),

    findBlock: (db: Executor, mediaId: string, id: string) => blockRecord.find(db, id, mediaId),

    async updateBlock(db: Executor, id: string, values: Partial<typeof sectionBlocks.$inferInsert>): Promise<void> {
      await uniqueOr(
        db
          .update(sectionBlocks)
          .set({ ...values, updatedAt: new Date() })
          .where(sql`${sectionBlocks.id} = ${id}`),
        magazinesErrors.issueConflict,
      );
    },

    listIssueContents: (db: Executor, mediaId: string, issueId: string, query: PagingQuery) =>
      sectionContentRecord.page(pager, db, mediaId, query, {
        filter: byParam('f_issue', sql`${sectionContents.issueId} = ${sql.placeholder('f_issue')}::uuid`, issueId),
      }),

    listSectionContents: (db: Executor, mediaId: string, sectionId: string, query: PagingQuery) =>
      sectionContentRecord.page(pager, db, mediaId, query, {
        order: SECTION_CONTENT_ORDER,
        orderName: 'position',
        filter: byParam('f_section', sql`${sectionContents.sectionId} = ${sql.placeholder('f_section')}::uuid`, sectionId),
      }),

    /**
     * The issue's section contents whose content matches `q` (`hits`: docs' search, a derived
     * table `(content_id, rank)`), most relevant first.
     */
    searchIssueContents(
      db: Executor,
      mediaId: string,
      issueId: string,
      query: PagingQuery,
      q: string,
      search: { hits: () => SQL; matchedBy: (contentId: SQL) => SQL; configsKey: string },
      sort: SearchSort = 'relevance',
    ) {
      const { hits, configsKey } = search;
      if (sort === 'newest') {
        // The section contents' own newest-first order and index, the match a filter of it.
        return sectionContentRecord.page(pager, db, mediaId, query, {
          filter: {
            name: `search_${configsKey}`,
            where: sql`${sectionContents.issueId} = ${sql.placeholder('issue')}::uuid and ${search.matchedBy(sql`${sectionContents.contentId}`)}`,
            params: { issue: issueId, q },
            customPlans: true,
          },
        });
      }
      // Built only to prepare the statement (once per connection), not per request.
      const source = () => sql`${hits()} as hits join ${sectionContents} on ${sectionContents.contentId} = hits.content_id`;
      return pager.page(
        {
          select: () => db.select({ ...sectionContentRecord.columns, rank: sql<number>`hits.rank`.as('rank') }).from(source()),
          keyset: rankedSectionContents,
          scope: `section_contents:search:${mediaId}:${JSON.stringify([issueId, q, configsKey])}`,
          where: () =>
            sql`${sectionContents.mediaId} = ${sql.placeholder('owner')} and ${sectionContents.issueId} = ${sql.placeholder('issue')}::uuid
              and ${sectionContentRecord.filter()}`,
          prepared: { executor: db, name: `section_contents_search_${configsKey}`, params: { owner: mediaId, issue: issueId, q }, rowsAsSelected: true, customPlans: true },
        },
        query,
      );
    },

    findSectionContent: (db: Executor, mediaId: string, id: string) => sectionContentRecord.find(db, id, mediaId),

    async insertSectionContent(db: Executor, values: typeof sectionContents.$inferInsert): Promise<string> {
      const [row] = await uniqueOr(
        db.insert(sectionContents).values(values).returning({ id: sectionContents.id }),
        magazinesErrors.sectionContentTaken,
      );
      return row!.id;
    },

    /**
     * SQL of a section's live entries as docs' listings take them: `(content_id, position)`,
     * the section the placeholder `section`.
     */
    sectionListing: () =>
      sql`select ${sectionContents.contentId} as content_id, ${sectionContents.position} as position from ${sectionContents}
        where ${sectionContents.sectionId} = ${sql.placeholder('section')}::uuid and ${sectionContents.deletedAt} is null`,

    /** SQL over a content id: whether it is listed in the issue (the placeholder `issue`). */
    inIssue: (contentId: SQL) =>
      sql`exists (select 1 from ${sectionContents} where ${sectionContents.contentId} = ${contentId}
        and ${sectionContents.issueId} = ${sql.placeholder('issue')}::uuid and ${sectionContents.deletedAt} is null)`,
  };
}

export type IssuesRepository = ReturnType<typeof createIssuesRepository>;
