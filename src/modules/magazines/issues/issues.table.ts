import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { deletedAt, idColumn, refColumn, timestamps } from '../../../db/columns.js';
import { mediaIdColumn, workspaces } from '../../core/tenancy/tenancy.table.js';
import { issueTypes } from '../issue-types/issue-types.table.js';

/** A magazine issue (spec 2.8): its texts per language in issue_locales, its sections below. */
export const issues = pgTable(
  'issues',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    workspaceId: refColumn('workspace_id', () => workspaces.id),
    issueTypeId: refColumn('issue_type_id', () => issueTypes.id),
    kind: text('kind').notNull(),
    color: text('color').notNull(),
    pdfFileKey: text('pdf_file_key'),
    advertisingKey: text('advertising_key'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    // The workspace's list, newest first, over live issues.
    index('issues_workspace_page_idx')
      .on(t.mediaId, t.workspaceId, t.insertedAt.desc(), t.id.desc())
      .where(sql`${t.deletedAt} is null`),
    index('issues_media_page_idx')
      .on(t.mediaId, t.insertedAt.desc(), t.id.desc())
      .where(sql`${t.deletedAt} is null`),
  ],
);

/** One language of an issue: its name, description and visual (a cover image). */
export const issueLocales = pgTable(
  'issue_locales',
  {
    id: idColumn(),
    issueId: refColumn('issue_id', () => issues.id),
    locale: text('locale').notNull(),
    name: text('name').notNull(),
    descriptionHtml: text('description_html'),
    descriptionText: text('description_text'),
    visualType: text('visual_type').notNull().default('none'),
    visualImageId: uuid('visual_image_id'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('issue_locales_live_uq')
      .on(t.issueId, t.locale)
      .where(sql`${t.deletedAt} is null`),
  ],
);

/** A section of an issue, ordered by position (then id) among the issue's live sections. */
export const sections = pgTable(
  'sections',
  {
    id: idColumn(),
    // Denormalised from the issue: a section, block or section content read by its own id
    // is scoped to the caller's media without a join.
    mediaId: mediaIdColumn(),
    issueId: refColumn('issue_id', () => issues.id),
    key: text('key').notNull(),
    position: integer('position').notNull(),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('sections_issue_key_uq')
      .on(t.issueId, t.key)
      .where(sql`${t.deletedAt} is null`),
    index('sections_issue_position_idx')
      .on(t.issueId, t.position, t.id)
      .where(sql`${t.deletedAt} is null`),
  ],
);

export const sectionLocales = pgTable(
  'section_locales',
  {
    id: idColumn(),
    sectionId: refColumn('section_id', () => sections.id),
    locale: text('locale').notNull(),
    name: text('name').notNull(),
    descriptionHtml: text('description_html'),
    descriptionText: text('description_text'),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('section_locales_live_uq')
      .on(t.sectionId, t.locale)
      .where(sql`${t.deletedAt} is null`),
  ],
);

/** The layout of a section: ordered blocks of a named kind with free settings. */
export const sectionBlocks = pgTable(
  'section_blocks',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    sectionId: refColumn('section_id', () => sections.id),
    kind: text('kind').notNull(),
    position: integer('position').notNull(),
    settings: jsonb('settings').notNull().default({}),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('section_blocks_position_uq')
      .on(t.sectionId, t.position)
      .where(sql`${t.deletedAt} is null`),
  ],
);

/** A place in a section block holding one content. */
export const blockSlots = pgTable(
  'block_slots',
  {
    id: idColumn(),
    blockId: refColumn('block_id', () => sectionBlocks.id),
    position: integer('position').notNull(),
    // A content of the media, checked through the docs module on write.
    contentId: uuid('content_id').notNull(),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('block_slots_position_uq')
      .on(t.blockId, t.position)
      .where(sql`${t.deletedAt} is null`),
  ],
);

/** The contents listed in a section, ordered by position (then id). */
export const sectionContents = pgTable(
  'section_contents',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    issueId: refColumn('issue_id', () => issues.id),
    sectionId: refColumn('section_id', () => sections.id),
    contentId: uuid('content_id').notNull(),
    position: integer('position').notNull(),
    ...timestamps(),
    deletedAt: deletedAt(),
  },
  (t) => [
    uniqueIndex('section_contents_section_content_uq')
      .on(t.sectionId, t.contentId)
      .where(sql`${t.deletedAt} is null`),
    // The section's pages (Reader, Public, Backoffice): position order, content_id breaking ties.
    index('section_contents_section_order_idx')
      .on(t.sectionId, t.position, t.contentId)
      .where(sql`${t.deletedAt} is null`),
    // The issue's Backoffice list, newest first, and its search.
    index('section_contents_issue_page_idx')
      .on(t.issueId, t.insertedAt.desc(), t.id.desc())
      .where(sql`${t.deletedAt} is null`),
  ],
);

export type IssueRow = typeof issues.$inferSelect;
