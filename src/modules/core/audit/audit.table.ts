import { desc, sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { idColumn, tstz } from '../../../db/columns.js';
import { mediaIdColumn } from '../tenancy/tenancy.table.js';

/**
 * One Backoffice write, inserted in the write's own transaction: who (the key, its name then),
 * which operation, which record, and the names of the fields the body set (never their values).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    /** When: the write's transaction time. */
    insertedAt: tstz('inserted_at').notNull().defaultNow(),
    keyId: uuid('key_id').notNull(),
    keyName: text('key_name').notNull(),
    operationId: text('operation_id').notNull(),
    /** created, updated, deleted or restored (webhooks' record event actions). */
    action: text('action').notNull(),
    recordKind: text('record_kind').notNull(),
    /** The record's id; null for a write that names none (a bulk replacement of a list). */
    recordId: text('record_id'),
    fields: jsonb('fields').$type<string[]>().notNull(),
  },
  (t) => [
    index('audit_log_media_page_idx').on(t.mediaId, desc(t.insertedAt), desc(t.id)),
    index('audit_log_media_record_idx').on(t.mediaId, t.recordId, desc(t.insertedAt), desc(t.id)).where(sql`${t.recordId} is not null`),
    // Retention prunes by age alone, across medias.
    index('audit_log_inserted_at_idx').on(t.insertedAt),
  ],
);
