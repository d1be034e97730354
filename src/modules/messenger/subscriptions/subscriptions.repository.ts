import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type Paginator, newestFirst } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import type { SubscriptionStatus } from './subscriptions.schemas.js';
import { subscriptions } from './subscriptions.table.js';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
const order = newestFirst<SubscriptionRow>(subscriptions);

/** Rows of `db.execute`, which answers an array on PGlite and `{ rows }` on node-postgres. */

export function createSubscriptionsRepository(pager: Paginator) {
  return {
    /** A list's subscriptions, newest first, optionally in one status: (list, [status,] inserted_at, id) indexes. */
    listByList: (db: Executor, mediaId: string, listId: string, query: PagingQuery, status?: SubscriptionStatus) =>
      pager.page(
        {
          select: db.select().from(subscriptions),
          keyset: order,
          scope: `subscriptions:${mediaId}:${listId}:${status ?? ''}`,
          where: and(
            eq(subscriptions.mailingListId, listId),
            eq(subscriptions.mediaId, mediaId),
            status ? eq(subscriptions.status, status) : undefined,
          ),
        },
        query,
      ),

    /** A reader's own subscriptions across the media's lists. */
    listByReader: (db: Executor, mediaId: string, readerId: string, query: PagingQuery) =>
      pager.page(
        {
          select: db.select().from(subscriptions),
          keyset: order,
          scope: `reader_subscriptions:${mediaId}:${readerId}`,
          where: and(eq(subscriptions.mediaId, mediaId), eq(subscriptions.readerId, readerId)),
        },
        query,
      ),

    async find(db: Executor, mediaId: string, id: string): Promise<SubscriptionRow | undefined> {
      const [row] = await db.select().from(subscriptions).where(and(eq(subscriptions.id, id), eq(subscriptions.mediaId, mediaId)));
      return row;
    },

    async findById(db: Executor, id: string): Promise<SubscriptionRow | undefined> {
      const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id));
      return row;
    },

    async findByEmail(db: Executor, listId: string, email: string, lock = false): Promise<SubscriptionRow | undefined> {
      const query = db.select().from(subscriptions).where(and(eq(subscriptions.mailingListId, listId), eq(subscriptions.email, email)));
      const [row] = lock ? await query.for('update') : await query;
      return row;
    },

    async findManyByEmail(db: Executor, listId: string, emails: string[]): Promise<SubscriptionRow[]> {
      if (emails.length === 0) return [];
      return db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.mailingListId, listId), inArray(subscriptions.email, emails)))
        .for('update');
    },

    async insert(db: Executor, values: typeof subscriptions.$inferInsert): Promise<SubscriptionRow> {
      const [row] = await db.insert(subscriptions).values(values).returning();
      return row!;
    },

    /** New rows of a bulk import; an address inserted meanwhile by someone else is left alone. */
    async insertMany(db: Executor, values: Array<typeof subscriptions.$inferInsert>): Promise<number> {
      if (values.length === 0) return 0;
      const rows = await db.insert(subscriptions).values(values).onConflictDoNothing().returning({ id: subscriptions.id });
      return rows.length;
    },

    /** Sets status and locale of many rows in one statement; a row that becomes subscribed is confirmed now. */
    async updateMany(db: Executor, changes: Array<{ id: string; status: string; locale: string | null }>): Promise<void> {
      if (changes.length === 0) return;
      await db.execute(sql`
        update ${subscriptions} s
        set status = v.status, locale = v.locale, updated_at = now(), confirm_jti = null,
            confirmed_at = case when v.status = 'subscribed' then coalesce(s.confirmed_at, now()) else s.confirmed_at end
        from json_to_recordset(${JSON.stringify(changes)}::json) as v(id uuid, status text, locale text)
        where s.id = v.id`);
    },

    async update(db: Executor, id: string, values: Partial<typeof subscriptions.$inferInsert>): Promise<SubscriptionRow> {
      const [row] = await db
        .update(subscriptions)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(subscriptions.id, id))
        .returning();
      return row!;
    },

    /** Confirms the pending subscription whose live confirmation token has this jti (single use); undefined otherwise. */
    async confirm(db: Executor, id: string, jti: string): Promise<SubscriptionRow | undefined> {
      const [row] = await db
        .update(subscriptions)
        .set({ status: 'subscribed', confirmJti: null, confirmedAt: new Date(), updatedAt: new Date() })
        .where(and(eq(subscriptions.id, id), eq(subscriptions.confirmJti, jti), eq(subscriptions.status, 'pending')))
        .returning();
      return row;
    },

    /** Unsubscribes the rows among `where` that are pending or subscribed; answers how many. */
    async unsubscribe(db: Executor, where: ReturnType<typeof and>): Promise<number> {
      const rows = await db
        .update(subscriptions)
        .set({ status: 'unsubscribed', confirmJti: null, updatedAt: new Date() })
        .where(and(where, inArray(subscriptions.status, ['pending', 'subscribed'])))
        .returning({ id: subscriptions.id });
      return rows.length;
    },

    /**
     * Marks the media's subscriptions of these addresses bounced or complained (a complaint
     * overrides a bounce, nothing overrides a complaint); answers how many changed.
     */
    async suppress(db: Executor, mediaId: string, emails: string[], status: 'bounced' | 'complained'): Promise<number> {
      if (emails.length === 0) return 0;
      const keep = status === 'complained' ? ['complained'] : ['complained', 'bounced'];
      const rows = await db
        .update(subscriptions)
        .set({ status, confirmJti: null, updatedAt: new Date() })
        .where(
          and(
            eq(subscriptions.mediaId, mediaId),
            inArray(subscriptions.email, emails),
            sql`${subscriptions.status} not in (${sql.join(keep.map((k) => sql`${k}`), sql`, `)})`,
          ),
        )
        .returning({ id: subscriptions.id });
      return rows.length;
    },
  };
}

export type SubscriptionsRepository = ReturnType<typeof createSubscriptionsRepository>;
