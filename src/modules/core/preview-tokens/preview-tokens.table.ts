import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idColumn, timestamps, tstz } from '../../../db/columns.js';
import { mediaIdColumn } from '../tenancy/tenancy.table.js';

/**
 * A preview token (CONVENTIONS, "Revisions, corrections and preview"): a content's preview link
 * (`content_id`) or a media-wide time-travel token (`as_of`). Only the token's SHA-256 is kept,
 * as for API keys. `content_id` carries no foreign key: contents are docs' table, and a link to a
 * content that is gone opens nothing (the Reader reads only live contents).
 */
export const previewTokens = pgTable(
  'preview_tokens',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    contentId: uuid('content_id'),
    asOf: tstz('as_of'),
    tokenHash: text('token_hash').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    revokedAt: tstz('revoked_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('preview_tokens_token_hash_uq').on(t.tokenHash),
    index('preview_tokens_content_page_idx').on(t.mediaId, t.contentId, t.insertedAt.desc(), t.id.desc()),
  ],
);

export type PreviewTokenRow = typeof previewTokens.$inferSelect;
