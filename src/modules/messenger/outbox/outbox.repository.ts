import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type Paginator, newestFirst } from '../../../shared/paging.js';
import { newsletters } from '../newsletters/newsletters.table.js';
import { rowsOf } from '../../../db/rows.js';
import { subscriptions } from '../subscriptions/subscriptions.table.js';
import type { OutboxQuery } from './outbox.schemas.js';
import { outboxMessages } from './outbox.table.js';

export type OutboxRow = typeof outboxMessages.$inferSelect;

/** The columns of a listing: no bodies (a newsletter's is the newsletter's). */
const summary = {
  id: outboxMessages.id,
  mediaId: outboxMessages.mediaId,
  kind: outboxMessages.kind,
  newsletterId: outboxMessages.newsletterId,
  subscriptionId: outboxMessages.subscriptionId,
  recipients: outboxMessages.recipients,
  subject: sql<string>`coalesce(${outboxMessages.subject}, ${newsletters.subject}, '')`.as('subject'),
  state: outboxMessages.state,
  attempts: outboxMessages.attempts,
  lastError: outboxMessages.lastError,
  sentAt: outboxMessages.sentAt,
  deliveredAt: outboxMessages.deliveredAt,
  insertedAt: outboxMessages.insertedAt,
  updatedAt: outboxMessages.updatedAt,
};
export interface OutboxSummaryRow {
  id: string;
  mediaId: string;
  kind: string;
  newsletterId: string | null;
  subscriptionId: string | null;
  recipients: string[];
  subject: string;
  state: string;
  attempts: number;
  lastError: string | null;
  sentAt: Date | null;
  deliveredAt: Date | null;
  insertedAt: Date;
  updatedAt: Date;
}
const order = newestFirst<OutboxSummaryRow>(outboxMessages);

/** A UUIDv7 made by the database, for rows written by INSERT … SELECT (ids stay in insertion order). */
const uuidv7Sql = sql`encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid`;

/** A claimed message with what sending it needs. */
export interface ClaimedMessage {
  id: string;
  media_id: string;
  kind: string;
  subscription_id: string | null;
  recipients: string[];
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string> | null;
  attempts: number;
  /** The subscription's status now, for a newsletter's message (cancelled when no longer subscribed). */
  subscription_status: string | null;
}

export function createOutboxRepository(pager: Paginator) {
  return {
    list: (db: Executor, mediaId: string, query: OutboxQuery) =>
      pager.page(
        {
          select: db.select(summary).from(outboxMessages).leftJoin(newsletters, eq(newsletters.id, outboxMessages.newsletterId)),
          keyset: order,
          scope: `outbox:${mediaId}:${query.state ?? ''}:${query.newsletter_id ?? ''}`,
          where: and(
            eq(outboxMessages.mediaId, mediaId),
            query.state ? eq(outboxMessages.state, query.state) : undefined,
            query.newsletter_id ? eq(outboxMessages.newsletterId, query.newsletter_id) : undefined,
          ),
        },
        query,
      ),

    async find(db: Executor, mediaId: string, id: string) {
      const [row] = await db
        .select({
          ...summary,
          html: sql<string>`coalesce(${outboxMessages.html}, ${newsletters.html}, '')`.as('html'),
          text: sql<string>`coalesce(${outboxMessages.text}, ${newsletters.text}, '')`.as('text'),
          headers: outboxMessages.headers,
        })
        .from(outboxMessages)
        .leftJoin(newsletters, eq(newsletters.id, outboxMessages.newsletterId))
        .where(and(eq(outboxMessages.id, id), eq(outboxMessages.mediaId, mediaId)));
      return row;
    },

    async insert(db: Executor, values: typeof outboxMessages.$inferInsert): Promise<OutboxRow> {
      const [row] = await db.insert(outboxMessages).values(values).returning();
      return row!;
    },

    /**
     * One message per subscribed address of the list, in one statement; the (newsletter,
     * subscription) key makes a second run of it add nothing.
     */
    async fanOut(db: Executor, mediaId: string, newsletterId: string, listId: string): Promise<number> {
      const result = await db.execute(sql`
        insert into ${outboxMessages} (id, media_id, kind, newsletter_id, subscription_id, recipients, state)
        select ${uuidv7Sql}, s.media_id, 'newsletter', ${newsletterId}::uuid, s.id, array[s.email], 'queued'
        from ${subscriptions} s
        where s.mailing_list_id = ${listId}::uuid and s.media_id = ${mediaId}::uuid and s.status = 'subscribed'
        order by s.id
        on conflict (newsletter_id, subscription_id) do nothing
        returning 1 as one`);
      return rowsOf(result).length;
    },

    /**
     * Claims up to `limit` messages that are due (queued and due, or sending with a lapsed lease)
     * for `leaseSeconds`, skipping rows another worker holds, and reads what sending them needs.
     */
    async claim(db: Executor, limit: number, leaseSeconds: number): Promise<ClaimedMessage[]> {
      const result = await db.execute(sql`
        with due as (
          select id from (
            (select id from ${outboxMessages} where state = 'queued' and next_attempt_at <= now() order by next_attempt_at, id limit ${limit})
            union all
            (select id from ${outboxMessages} where state = 'sending' and lease_until < now() order by lease_until limit ${limit})
          ) candidates
        ), claimed as (
          update ${outboxMessages} m
          set state = 'sending', attempts = m.attempts + 1, lease_until = now() + make_interval(secs => ${leaseSeconds}), updated_at = now()
          where m.id in (
            select id from ${outboxMessages} where id in (select id from due)
              and (state = 'queued' or (state = 'sending' and lease_until < now()))
            order by id limit ${limit} for update skip locked
          )
          returning m.*
        )
        select c.id, c.media_id, c.kind, c.subscription_id, c.recipients, c.headers, c.attempts,
               coalesce(c.subject, n.subject) as subject, coalesce(c.html, n.html) as html, coalesce(c.text, n.text) as text,
               s.status as subscription_status
        from claimed c
        left join ${newsletters} n on n.id = c.newsletter_id
        left join ${subscriptions} s on s.id = c.subscription_id
        order by c.id`);
      return rowsOf<ClaimedMessage>(result);
    },

    /** Records the outcome of a send of a claimed message (still `sending`: a lapsed, retaken lease is not overwritten by the old holder). */
    async settle(
      db: Executor,
      id: string,
      attempts: number,
      outcome: { state: 'sent' | 'not_sent' | 'cancelled' | 'failed' } | { state: 'queued'; retryInSeconds: number; error: string },
      error?: string,
    ): Promise<void> {
      const retry = outcome.state === 'queued' ? sql`now() + make_interval(secs => ${outcome.retryInSeconds})` : sql`next_attempt_at`;
      await db.execute(sql`
        update ${outboxMessages}
        set state = ${outcome.state}, lease_until = null, updated_at = now(), next_attempt_at = ${retry},
            sent_at = case when ${outcome.state} = 'sent' then now() else sent_at end,
            last_error = ${outcome.state === 'queued' ? outcome.error : (error ?? null)}
        where id = ${id}::uuid and state = 'sending' and attempts = ${attempts}`);
    },

    /** Whether any message waits to be sent (queued, or sending under a lease that may lapse). */
    async hasPending(db: Executor): Promise<boolean> {
      const result = await db.execute(sql`
        select exists (select 1 from ${outboxMessages} where state = 'queued') or exists (select 1 from ${outboxMessages} where state = 'sending') as pending`);
      return rowsOf<{ pending: boolean }>(result)[0]?.pending === true;
    },

    /** Records many claimed messages as sent in one statement (each still `sending` under its own claim). */
    async settleSent(db: Executor, claims: Array<{ id: string; attempts: number }>): Promise<void> {
      if (claims.length === 0) return;
      await db.execute(sql`
        update ${outboxMessages} m
        set state = 'sent', lease_until = null, updated_at = now(), sent_at = now(), last_error = null
        from json_to_recordset(${JSON.stringify(claims)}::json) as c(id uuid, attempts int)
        where m.id = c.id and m.state = 'sending' and m.attempts = c.attempts`);
    },

    /** When the next row falls due (a retry later, a lease lapsing), if any. */
    async nextDue(db: Executor): Promise<Date | undefined> {
      const result = await db.execute(sql`
        select least(
          (select min(next_attempt_at) from ${outboxMessages} where state = 'queued'),
          (select min(lease_until) from ${outboxMessages} where state = 'sending')) as at`);
      const at = rowsOf<{ at: string | Date | null }>(result)[0]?.at;
      return at ? new Date(at) : undefined;
    },

    /** Confirmation mails sent to an address of the media since `since` (the per-address limit). */
    async countConfirmations(db: Executor, mediaId: string, email: string, since: Date): Promise<number> {
      const result = await db.execute(sql`
        select count(*)::int as n from ${outboxMessages}
        where media_id = ${mediaId}::uuid and kind = 'confirmation' and recipients = array[${email}]::text[]
          and inserted_at >= ${since.toISOString()}::timestamptz`);
      return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
    },

    /** Delivery events: the media's message by id, else the latest one sent to the address. */
    async markDelivery(
      db: Executor,
      mediaId: string,
      recipient: string,
      state: 'delivered' | 'bounced' | 'complained',
      messageId: string | undefined,
    ): Promise<number> {
      const target = messageId
        ? sql`id = ${messageId}::uuid`
        : sql`id = (select id from ${outboxMessages} where media_id = ${mediaId}::uuid and ${recipient} = any(recipients)
                     and state in ('sent', 'delivered') order by sent_at desc nulls last, id desc limit 1)`;
      const result = await db.execute(sql`
        update ${outboxMessages} set state = ${state}, updated_at = now(),
          delivered_at = case when ${state} = 'delivered' then now() else delivered_at end
        where media_id = ${mediaId}::uuid and ${target} and state in ('sent', 'delivered', 'bounced')
        returning 1 as one`);
      return rowsOf(result).length;
    },

    /** Per newsletter, how many of its messages are in each state: one statement for a page. */
    async countsByNewsletter(db: Executor, newsletterIds: string[]): Promise<Map<string, Record<string, number>>> {
      const counts = new Map<string, Record<string, number>>();
      if (newsletterIds.length === 0) return counts;
      const result = await db.execute(sql`
        select newsletter_id, state, count(*)::int as n from ${outboxMessages}
        where newsletter_id = any(${`{${newsletterIds.join(',')}}`}::uuid[])
        group by newsletter_id, state`);
      for (const row of rowsOf<{ newsletter_id: string; state: string; n: number }>(result)) {
        const entry = counts.get(row.newsletter_id) ?? {};
        entry[row.state] = row.n;
        counts.set(row.newsletter_id, entry);
      }
      return counts;
    },
  };
}

export type OutboxRepository = ReturnType<typeof createOutboxRepository>;
