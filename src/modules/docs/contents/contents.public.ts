import { type SQL, and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { isoText } from '../../../shared/aggregate.js';
import { liveIdsIn } from '../../../shared/record/index.js';
import { templates } from '../templates/templates.table.js';
import { contentRecord } from './contents.repository.js';
import { contentCategories, contentCorrections, contentLocales, contents } from './contents.table.js';

/**
 * What other areas may read of contents, without their tables: which ids are live records
 * (references), the latest published contents of a feed, and the published contents' links
 * for sitemaps. Published means what readers may see now (contentRecord's `published` view).
 */

const idsParam = (ids: readonly string[]) => sql`${`{${[...new Set(ids)].join(',')}}`}::uuid[]`;

/** The ids among `ids` that are live (not soft-deleted) contents of the media. */
export const liveContentIds = liveIdsIn(contents);

/** The ids among `ids` that are contents of the media readers may see now (the `published` view). */
export const publishedContentIds = liveIdsIn(contents, contentRecord.filter('published'));

/** The ids among `ids` that are live templates of the media. */
export const liveTemplateIds = liveIdsIn(templates);

export interface FeedContent {
  id: string;
  canonicalUrl: string | null;
  publishedAt: string;
  updatedAt: string;
  /**
   * The language entries, live ones only: the caller picks one by the locale rule. `title` is plain
   * text, `leadHtml` sanitized HTML, `corrections` the entry's live correction notes (sanitized HTML), newest first.
   */
  locales: Array<{ locale: string; title: string; leadHtml: string | null; corrections: Array<{ insertedAt: string; noteHtml: string }> }>;
}

/**
 * The latest published contents of a feed, newest publication first (contents_reader_idx),
 * with their live language entries, in one statement: of any of `categoryIds` and of any of
 * `templateIds` when given.
 */
export async function feedContents(
  db: Executor,
  mediaId: string,
  feed: { categoryIds: readonly string[]; templateIds: readonly string[]; limit: number },
): Promise<FeedContent[]> {
  // Qualified: in a one-table select Drizzle writes a column bare, which a subquery would read as its own.
  const ownId = sql`${sql.identifier('contents')}.${sql.identifier('id')}`;
  const filters: SQL[] = [eq(contents.mediaId, mediaId), contentRecord.filter('published')];
  if (feed.templateIds.length > 0) filters.push(sql`${contents.templateId} = any(${idsParam(feed.templateIds)})`);
  if (feed.categoryIds.length > 0) {
    filters.push(
      sql`exists (select 1 from ${contentCategories} where ${contentCategories.contentId} = ${ownId}
          and ${contentCategories.categoryId} = any(${idsParam(feed.categoryIds)}))`,
    );
  }
  const rows = await db
    // Every field aliased to its key: the statement's rows are the answer's shape, whoever runs it.
    .select({
      id: sql<string>`${ownId}`.as('id'),
      canonicalUrl: sql<string | null>`${contents.canonicalUrl}`.as('canonicalUrl'),
      publishedAt: isoText(contents.publishedAt).as('publishedAt'),
      updatedAt: isoText(contents.updatedAt).as('updatedAt'),
      locales: sql<FeedContent['locales']>`coalesce((select json_agg(json_build_object('locale', l.locale, 'title', l.title_text, 'leadHtml', l.lead_html,
          'corrections', coalesce((select json_agg(json_build_object('insertedAt', ${isoText(contentCorrections.insertedAt, sql`c.inserted_at`)}, 'noteHtml', c.note_html)
            order by c.inserted_at desc, c.id desc) from ${contentCorrections} c where c.content_id = l.content_id and c.locale = l.locale and c.deleted_at is null), '[]'::json)) order by l.locale)
        from ${contentLocales} l where l.content_id = ${ownId} and l.deleted_at is null), '[]'::json)`.as('locales'),
    })
    .from(contents)
    .where(and(...filters))
    .orderBy(desc(contents.publishedAt), desc(contents.id))
    .limit(feed.limit);
  return rows as FeedContent[];
}

/**
 * Published contents for sitemaps, ordered by id, keyset after `afterId` (only those with an http(s)
 * canonical URL when `canonicalOnly`): the shape community's profile links have.
 */
export async function publishedContentLinks(
  db: Executor,
  mediaId: string,
  page: { afterId?: string; limit: number; canonicalOnly?: boolean },
): Promise<Array<{ id: string; canonicalUrl: string | null; updatedAt: string }>> {
  return db
    .select({ id: contents.id, canonicalUrl: contents.canonicalUrl, updatedAt: isoText(contents.updatedAt) })
    .from(contents)
    .where(
      and(
        eq(contents.mediaId, mediaId),
        contentRecord.filter('published'),
        page.afterId ? gt(contents.id, page.afterId) : undefined,
        page.canonicalOnly ? sql`${contents.canonicalUrl} ~* '^https?://'` : undefined,
      ),
    )
    .orderBy(asc(contents.id))
    .limit(page.limit);
}
