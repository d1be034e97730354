import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type Paginator, newestFirst } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { type ReaderInvitationRow, readerInvitations } from './invitations.table.js';

const order = newestFirst<ReaderInvitationRow>(readerInvitations);

export function createInvitationsRepository(pager: Paginator) {
  return {
    async list(db: Executor, mediaId: string, query: PagingQuery) {
      const plan = pager.plan(order, `reader_invitations:${mediaId}`, query);
      const rows = await db
        .select()
        .from(readerInvitations)
        .where(and(eq(readerInvitations.mediaId, mediaId), plan.where))
        .orderBy(...plan.orderBy)
        .limit(plan.limit);
      return plan.finish(rows);
    },

    async find(db: Executor, mediaId: string, id: string): Promise<ReaderInvitationRow | undefined> {
      const [row] = await db
        .select()
        .from(readerInvitations)
        .where(and(eq(readerInvitations.id, id), eq(readerInvitations.mediaId, mediaId)));
      return row;
    },

    async insert(db: Executor, values: typeof readerInvitations.$inferInsert): Promise<ReaderInvitationRow> {
      const [row] = await db.insert(readerInvitations).values(values).returning();
      return row!;
    },
  };
}

export type InvitationsRepository = ReturnType<typeof createInvitationsRepository>;
