import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { issues } from './issues/issues.table.js';

/** Whether `issueId` is a live (not soft-deleted) magazine issue of the media. */
export async function issueExists(db: Executor, mediaId: string, issueId: string): Promise<boolean> {
  const rows = await db
    .select({ id: issues.id })
    .from(issues)
    .where(and(eq(issues.id, issueId), eq(issues.mediaId, mediaId), isNull(issues.deletedAt)))
    .limit(1);
  return rows.length > 0;
}
