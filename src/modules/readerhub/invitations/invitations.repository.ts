import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type Paginator, newestFirst } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { type ReaderInvitationRow, readerInvitations } from './invitations.table.js';

const order = newestFirst<ReaderInvitationRow>(readerInvitations);

export function createInvitationsRepository(pager: Paginator) {
  return {
    list: (db: Executor, mediaId: string, query: PagingQuery) =>
      pager.page(
        {
          select: () => db.select().from(readerInvitations),
          keyset: order,
          scope: `reader_invitations:${mediaId}`,
          where: eq(readerInvitations.mediaId, mediaId),
        },
        query,
      ),

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
