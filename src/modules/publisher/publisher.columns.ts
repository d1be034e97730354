import { desc, sql } from 'drizzle-orm';
import { type PgColumn, index } from 'drizzle-orm/pg-core';
import type { RecordCols } from '../../db/columns.js';

/** An organization's records in the list's order (newest first, live rows): the Public lists under /community/v2/organizations/{id}. */
export const organizationPageIndex = (name: string, t: RecordCols & { organizationId: PgColumn }) =>
  index(`${name}_media_organization_page_idx`).on(t.mediaId, t.organizationId, desc(t.insertedAt), desc(t.id)).where(sql`${t.deletedAt} is null`);

