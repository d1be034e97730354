import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { deletedAt, idColumn, metadataColumns, newId, refColumn, timestamps, tstz } from '../../../db/columns.js';
import { VISIBILITIES } from '../../../shared/access.js';
import { blockColumns } from '../../../shared/blocks.js';
import { searchableEntryColumns, searchableEntryIndexes } from '../../../shared/search.js';
import { categoryLinkColumns } from '../../core/categories/categories.table.js';
import { mediaIdColumn, statuses, workspaces } from '../../core/tenancy/tenancy.table.js';
import { templates } from '../templates/templates.table.js';

/** An article (spec 2.7): flags and dates here, its text per language in content_locales. */
export const contents = pgTable(
  'contents',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    workspaceId: refColumn('workspace_id', () => workspaces.id),
    statusId: refColumn('status_id', () => statuses.id),
    templateId: refColumn('template_id', () => templates.id),
    canonicalUrl: text('canonical_url'),
    // The canonical URL's host, kept beside it for the wire (spec 2.7 serves both).
    canonicalDomain: text('canonical_domain'),
    isArchived: boolean('is_archived').notNull().default(false),
    showPublicationDatetime: boolean('show_publication_datetime').notNull().default(true),
    isAdvertising: boolean('is_advertising').notNull().default(false),
    isSponsored: boolean('is_sponsored').notNull().default(false),
    /** Who may read the body (shared/access.ts): public, registered or subscribers. */
    visibility: text('visibility', { enum: VISIBILITIES }).notNull().default('public'),
    /** For subscribers: the products whose entitlement opens it (any one); empty: any. */
    productKeys: text('product_keys').array().notNull().default(sql`'{}'::text[]`),
    publishedAt: tstz('published_at'),
    releasedAt: tstz('released_at'),
    releasedAtTimezone: text('released_at_timezone'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    // The Backoffice's three sorts, newest first, over the live rows.
    index('contents_media_page_idx')
      .on(t.mediaId, t.insertedAt.desc(), t.id.desc())
      .where(sql`${t.deletedAt} is null`),
    index('contents_media_updated_idx')
      .on(t.mediaId, t.updatedAt.desc(), t.id.desc())
      .where(sql`${t.deletedAt} is null`),
    // Drafts have no published_at: they sort as the epoch, after every published content.
    index('contents_media_published_idx')
      .on(t.mediaId, sql`coalesce(${t.publishedAt}, '1970-01-01T00:00:00Z'::timestamptz) desc nulls last`, sql`${t.id} desc nulls last`)
      .where(sql`${t.deletedAt} is null`),
    // The Reader's order: what readers may see, newest publication first.
    index('contents_reader_idx')
      .on(t.mediaId, t.publishedAt.desc(), t.id.desc())
      .where(sql`${t.deletedAt} is null and ${t.isArchived} = false and ${t.publishedAt} is not null`),
    index('contents_template_idx').on(t.templateId),
    check('contents_visibility_ck', sql`${t.visibility} in ('public', 'registered', 'subscribers')`),
  ],
);

/** One language of a content: its texts, SEO, visual and search document. */
export const contentLocales = pgTable(
  'content_locales',
  {
    id: idColumn(),
    contentId: refColumn('content_id', () => contents.id),
    locale: text('locale').notNull(),
    location: text('location'),
    titleHtml: text('title_html').notNull(),
    titleText: text('title_text').notNull(),
    subtitleHtml: text('subtitle_html'),
    subtitleText: text('subtitle_text'),
    leadHtml: text('lead_html'),
    leadText: text('lead_text'),
    seoTitle: text('seo_title'),
    seoDescription: text('seo_description'),
    visualId: uuid('visual_id')
      .notNull()
      .$defaultFn(() => newId()),
    visualType: text('visual_type').notNull().default('none'),
    /** The image (one) or the slideshow's images (in order), resolved on every read. */
    visualImageIds: uuid('visual_image_ids').array(),
    visualVideo: jsonb('visual_video'),
    ...searchableEntryColumns(),
  },
  (t) => searchableEntryIndexes('content_locales', { id: t.id, insertedAt: t.insertedAt, parent: t.contentId, locale: t.locale, mediaId: t.mediaId, search: t.search, title: t.titleText, deletedAt: t.deletedAt }),
);

/** A content's categories, in the order sent. */
export const contentCategories = pgTable(
  'content_categories',
  {
    contentId: refColumn('content_id', () => contents.id),
    ...categoryLinkColumns(),
  },
  (t) => [
    uniqueIndex('content_categories_content_category_uq').on(t.contentId, t.categoryId),
    // The lists' category filter.
    index('content_categories_category_idx').on(t.categoryId, t.contentId),
  ],
);

/** The authors of a language entry: community profile ids, in order. */
export const contentAuthors = pgTable(
  'content_authors',
  {
    id: idColumn(),
    localeId: refColumn('locale_id', () => contentLocales.id),
    profileId: uuid('profile_id').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [uniqueIndex('content_authors_locale_profile_uq').on(t.localeId, t.profileId)],
);

/** The body of a language entry: the shared block kinds, ordered. */
export const contentBlocks = pgTable(
  'content_blocks',
  {
    localeId: refColumn('locale_id', () => contentLocales.id),
    ...blockColumns(),
  },
  (t) => [
    // Positions are unique among a locale's live blocks; deleted ones keep theirs.
    uniqueIndex('content_blocks_position_uq')
      .on(t.localeId, t.position)
      .where(sql`${t.deletedAt} is null`),
  ],
);

/** A content's metadata: ordered key/value entries, one per key. */
export const contentMetadata = pgTable(
  'content_metadata',
  {
    contentId: refColumn('content_id', () => contents.id),
    ...metadataColumns(),
  },
  (t) => [uniqueIndex('content_metadata_key_uq').on(t.contentId, t.key)],
);

/** A reader's vote on a question block: one per reader and question, replaced by a new vote. */
export const questionVotes = pgTable(
  'question_votes',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    blockId: refColumn('block_id', () => contentBlocks.id),
    /** The reader: the token's subject (`<provider id>:<sub>`). */
    voter: text('voter').notNull(),
    choiceId: uuid('choice_id').notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('question_votes_block_voter_uq').on(t.blockId, t.voter)],
);

export type ContentRow = typeof contents.$inferSelect;

/**
 * A public correction note on a content, in one of its languages (CONVENTIONS, "Revisions,
 * corrections and preview"): sanitized HTML with its text twin. Keyed by the content and the
 * locale, not by the language entry, so that a note outlives its entry being rewritten.
 */
export const contentCorrections = pgTable(
  'content_corrections',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    contentId: refColumn('content_id', () => contents.id),
    locale: text('locale').notNull(),
    noteHtml: text('note_html').notNull(),
    noteText: text('note_text').notNull(),
    insertedAt: tstz('inserted_at').notNull().defaultNow(),
    deletedAt: deletedAt(),
  },
  (t) => [
    // A content's live notes of a language, newest first: the Reader reads them beside the entry.
    index('content_corrections_content_idx')
      .on(t.contentId, t.locale, t.insertedAt.desc(), t.id.desc())
      .where(sql`${t.deletedAt} is null`),
  ],
);
