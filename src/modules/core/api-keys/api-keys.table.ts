import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, timestamps, tstz } from '../../../db/columns.js';
import { mediaIdColumn } from '../tenancy/tenancy.table.js';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    name: text('name').notNull(),
    role: text('role').notNull(),
    // SHA-256 of the secret, hex. The secret itself is never stored.
    keyHash: text('key_hash').notNull(),
    // The first characters of the secret, so that a person can tell keys apart.
    keyPrefix: text('key_prefix').notNull(),
    lastUsedAt: tstz('last_used_at'),
    expiresAt: tstz('expires_at'),
    revokedAt: tstz('revoked_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_uq').on(t.keyHash),
    index('api_keys_media_page_idx').on(t.mediaId, t.insertedAt.desc(), t.id.desc()),
  ],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
