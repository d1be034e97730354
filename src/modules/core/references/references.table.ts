import { pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamps, tstz } from '../../../db/columns.js';
import { mediaIdColumn } from '../tenancy/tenancy.table.js';

// A reference maps an external system's id (`<provider>:<id>`) to one of our records (`urn`).
export const references = pgTable(
  'references',
  {
    mediaId: mediaIdColumn(),
    provider: text('provider').notNull(),
    id: uuid('id').notNull(),
    urn: text('urn').notNull(),
    expiresAt: tstz('expires_at'),
    ...timestamps(),
  },
  (t) => [primaryKey({ name: 'references_pk', columns: [t.mediaId, t.provider, t.id] })],
);

export type ReferenceRow = typeof references.$inferSelect;
