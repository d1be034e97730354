import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { deletedAt, idColumn, timestamps } from '../../../db/columns.js';

export const media = pgTable('media', {
  id: idColumn(),
  name: text('name').notNull(),
  defaultLocale: text('default_locale').notNull(),
  locales: text('locales').array().notNull(),
  siteUrl: text('site_url'),
  /** Per asked language, the languages a Reader read tries next, in order, before the default. */
  localeFallbacks: jsonb('locale_fallbacks').$type<Record<string, string[]>>().notNull().default({}),
  /** The meter (shared/access.ts): `limit` distinct subscriber contents per `periodDays` a signed-in reader may open; 0: off. */
  meterLimit: integer('meter_limit').notNull().default(0),
  meterPeriodDays: integer('meter_period_days').notNull().default(30),
  ...timestamps(),
});

/** The tenant column every record carries: the media it belongs to. */
export const mediaIdColumn = () =>
  uuid('media_id')
    .notNull()
    .references(() => media.id);

/** The columns every record of a media shares: id, media, timestamps, soft delete (with `recordIndexes` of db/columns.ts). */
export const recordColumns = () => ({ id: idColumn(), mediaId: mediaIdColumn(), ...timestamps(), deletedAt: deletedAt() });

/** The columns a media's named record with a stable key shares (a workspace, a content type, a topic). */
export const keyedRecordColumns = () => ({
  id: idColumn(),
  mediaId: mediaIdColumn(),
  key: text('key').notNull(),
  name: text('name').notNull(),
});

export const workspaces = pgTable(
  'workspaces',
  {
    ...keyedRecordColumns(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('workspaces_media_key_uq').on(t.mediaId, t.key),
    index('workspaces_media_page_idx').on(t.mediaId, t.insertedAt.desc(), t.id.desc()),
  ],
);

export const statuses = pgTable(
  'statuses',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    key: text('key').notNull(),
    name: text('name').notNull(),
    isPublished: boolean('is_published').notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('statuses_media_key_uq').on(t.mediaId, t.key),
    index('statuses_media_page_idx').on(t.mediaId, t.insertedAt.desc(), t.id.desc()),
  ],
);

export type MediaRow = typeof media.$inferSelect;
export type WorkspaceRow = typeof workspaces.$inferSelect;
export type StatusRow = typeof statuses.$inferSelect;
