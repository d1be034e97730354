import { desc } from 'drizzle-orm';
import { index, integer, json, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { idColumn, tstz } from '../../../db/columns.js';
import { mediaIdColumn } from '../tenancy/tenancy.table.js';

/**
 * One revision of a record that keeps revisions, inserted in the write's own transaction: the
 * record's Backoffice wire shape after the write (what is read and diffed) and its aggregate's
 * rows (what a revert writes back exactly), who wrote it and why.
 */
export const revisions = pgTable(
  'revisions',
  {
    id: idColumn(),
    mediaId: mediaIdColumn(),
    recordKind: text('record_kind').notNull(),
    recordId: uuid('record_id').notNull(),
    /** 1, 2, … per record, under the record's row lock. */
    number: integer('number').notNull(),
    /** created, updated, deleted, restored or reverted. */
    action: text('action').notNull(),
    keyId: uuid('key_id'),
    /** The key's name at the time of the write. */
    keyName: text('key_name').notNull(),
    operationId: text('operation_id').notNull(),
    /** X-Revision-Note. */
    note: text('note'),
    /** json, not jsonb: the wire shape's field order is kept, as the record's own answer has it. */
    record: json('record').notNull(),
    /** The aggregate's live rows by part path (null for a delete's revision, which is not reverted to). */
    rows: jsonb('rows'),
    insertedAt: tstz('inserted_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('revisions_record_number_uq').on(t.recordKind, t.recordId, t.number),
    // A record's list, newest first, within its media.
    index('revisions_media_record_idx').on(t.mediaId, t.recordKind, t.recordId, desc(t.number)),
    // Retention prunes by age alone, across medias.
    index('revisions_inserted_at_idx').on(t.insertedAt),
  ],
);
