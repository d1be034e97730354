import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { type RequestContext, transaction } from '../../../shared/context.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import type { ReaderPrincipal } from '../../../shared/scopes.js';
import type { MailingListsService } from '../mailing-lists/mailing-lists.record.js';
import { messengerErrors } from '../messenger.errors.js';
import { type MailLinks, esc, layout } from '../messenger.render.js';
import type { TokenSigner } from '../messenger.tokens.js';
import type { OutboxService } from '../outbox/outbox.service.js';
import type { SubscriptionRow, SubscriptionsRepository } from './subscriptions.repository.js';
import {
  type BulkBody,
  type SubscribeBody,
  type SubscriptionStatus,
  SUPPRESSED,
  type SubscriptionsQuery,
  emailAddress,
} from './subscriptions.schemas.js';
import { subscriptions as subscriptionsTable } from './subscriptions.table.js';

/** A confirmation link is good for two days; an unsubscribe link for a year. */
export const CONFIRM_TTL_SECONDS = 2 * 24 * 3600;
export const UNSUBSCRIBE_TTL_SECONDS = 365 * 24 * 3600;
/** Confirmation mails to one address of a media in an hour (subscription bombing). */
export const CONFIRMATIONS_PER_HOUR = 3;

type Refusal = { index: number; email: string; reason: 'invalid_email' | 'duplicate' | 'suppressed' };

export function createSubscriptionsService(deps: {
  /** The one read made before a request knows its media (`mediaOf`: the Public status names none). */
  db: Db;
  repo: SubscriptionsRepository;
  mailingLists: MailingListsService;
  outbox: OutboxService;
  tokens: TokenSigner;
  links: MailLinks;
  /** Asks for a send run once the context's transaction (which queued a message) has committed. */
  kick: (ctx: RequestContext) => Promise<void>;
}) {
  const { db, repo, mailingLists, outbox, tokens, links } = deps;

  const assertList = async (ctx: RequestContext, id: string) => {
    if (!(await mailingLists.find(ctx.db, ctx.mediaId, id))) throw messengerErrors.mailingListNotFound();
  };

  const readerOf = (ctx: RequestContext): ReaderPrincipal | undefined => {
    const principal = ctx.principal as ReaderPrincipal | null;
    return principal?.kind === 'reader' ? principal : undefined;
  };

  const confirmationMail = (email: string, token: string, listName: string) => {
    const link = links.confirm(token);
    return {
      subject: `Please confirm your subscription to ${listName}`,
      html: layout(
        'Confirm your subscription',
        `<p>Someone, hopefully you, asked to receive <strong>${esc(listName)}</strong> at ${esc(email)}.</p>` +
          `<p><a href="${esc(link)}">Confirm the subscription</a></p>` +
          '<p>If it was not you, ignore this message: nothing is sent without your confirmation.</p>',
      ),
      text: `Someone, hopefully you, asked to receive ${listName} at ${email}.\n\nConfirm the subscription: ${link}\n\nIf it was not you, ignore this message: nothing is sent without your confirmation.\n`,
    };
  };

  return {
    /** A subscription of the media by id, else 404. */
    get: async (ctx: RequestContext, id: string): Promise<SubscriptionRow> => {
      const row = await repo.find(ctx.db, ctx.mediaId, id);
      if (!row) throw messengerErrors.subscriptionNotFound();
      return row;
    },

    /** The media of a subscription, else 404: the Public status read names no media. */
    mediaOf: async (id: string): Promise<string> => {
      const row = await repo.findById(db, id);
      if (!row) throw messengerErrors.subscriptionNotFound();
      return row.mediaId;
    },

    listByList: async (ctx: RequestContext, listId: string, query: SubscriptionsQuery) => {
      await assertList(ctx, listId);
      return repo.listByList(ctx.db, ctx.mediaId, listId, query, query.status);
    },

    /**
     * Upserts up to 1,000 rows: new addresses are created, known ones updated when their status
     * or locale differs; an address that unsubscribed, bounced or complained is never
     * re-subscribed. Invalid and repeated addresses are refused with their reason.
     */
    async bulk(ctx: RequestContext, listId: string, body: BulkBody) {
      const refusals: Refusal[] = [];
      const wanted = new Map<string, { index: number; status: SubscriptionStatus; locale: string | null }>();
      body.subscriptions.forEach((row, index) => {
        const parsed = emailAddress.safeParse(row.email);
        if (!parsed.success) return refusals.push({ index, email: row.email, reason: 'invalid_email' });
        if (wanted.has(parsed.data)) return refusals.push({ index, email: parsed.data, reason: 'duplicate' });
        wanted.set(parsed.data, { index, status: row.status ?? 'subscribed', locale: row.locale ?? null });
      });
      const outcome = await transaction(ctx, async (tx) => {
        if (!(await mailingLists.find(tx, ctx.mediaId, listId))) throw messengerErrors.mailingListNotFound();
        const existing = new Map((await repo.findManyByEmail(tx, listId, [...wanted.keys()])).map((row) => [row.email, row]));
        const inserts: Array<typeof subscriptionsTable.$inferInsert> = [];
        const changes: Array<{ id: string; status: string; locale: string | null }> = [];
        let unchanged = 0;
        for (const [email, want] of wanted) {
          const row = existing.get(email);
          if (!row) {
            const now = new Date();
            inserts.push({
              mediaId: ctx.mediaId,
              mailingListId: listId,
              email,
              locale: want.locale,
              status: want.status,
              confirmedAt: want.status === 'subscribed' ? now : null,
            });
            continue;
          }
          if (want.status === 'subscribed' && SUPPRESSED.includes(row.status as SubscriptionStatus)) {
            refusals.push({ index: want.index, email, reason: 'suppressed' });
            continue;
          }
          // Bounced and complained stay so, whatever the import says.
          const status = row.status === 'bounced' || row.status === 'complained' ? row.status : want.status;
          const locale = want.locale ?? row.locale;
          if (status === row.status && locale === row.locale) unchanged++;
          else changes.push({ id: row.id, status, locale });
        }
        const created = await repo.insertMany(tx, inserts);
        await repo.updateMany(tx, changes);
        // An address someone else inserted meanwhile counts as unchanged.
        return { created, updated: changes.length, unchanged: unchanged + (inserts.length - created) };
      });
      refusals.sort((a, b) => a.index - b.index);
      return { ...outcome, refused: refusals.length, refusals };
    },

    // ---- Reader

    /**
     * Subscribes an address to a public list. A signed-in reader whose provider vouches for the
     * address (email_verified), or a list without double opt-in, subscribes at once; otherwise
     * a confirmation mail goes out. The answer is the same whether the address was on the list
     * already or not; bounced and complained addresses get no mail.
     */
    async subscribe(ctx: RequestContext, body: SubscribeBody): Promise<{ status: 'accepted' | 'subscribed' }> {
      const reader = readerOf(ctx);
      const readerEmail = reader?.email ? emailAddress.safeParse(reader.email).data : undefined;
      const email = body.email ?? readerEmail;
      if (!email) throw messengerErrors.emailRequired();
      const vouched = Boolean(reader?.emailVerified && readerEmail === email);
      const list = await mailingLists.find(ctx.db, ctx.mediaId, body.mailing_list_id, 'public');
      if (!list) throw messengerErrors.mailingListReferenceNotFound();
      const direct = vouched || !list.doubleOptIn;

      if (!direct) {
        const since = new Date(Date.now() - 3600_000);
        if ((await outbox.countConfirmations(ctx.db, ctx.mediaId, email, since)) >= CONFIRMATIONS_PER_HOUR) throw messengerErrors.addressRateLimited();
      }
      const locale = body.locale ?? null;
      const listName = list.locales.find((l) => l.locale === locale)?.name ?? list.locales[0]?.name ?? 'our newsletter';
      const queued = await transaction(ctx, async (tx) => {
        let row = await repo.findByEmail(tx, list.id, email, true);
        if (row && (row.status === 'bounced' || row.status === 'complained')) return false;
        if (row?.status === 'subscribed') {
          if (vouched && !row.readerId) await repo.update(tx, row.id, { readerId: reader!.subject });
          return false;
        }
        const readerId = vouched ? reader!.subject : (row?.readerId ?? (reader && readerEmail === email ? reader.subject : null));
        if (direct) {
          const values = { status: 'subscribed', confirmedAt: new Date(), confirmJti: null, readerId, locale: locale ?? row?.locale ?? null };
          if (row) await repo.update(tx, row.id, values);
          else await repo.insert(tx, { mediaId: ctx.mediaId, mailingListId: list.id, email, ...values });
          return false;
        }
        row ??= await repo.insert(tx, { mediaId: ctx.mediaId, mailingListId: list.id, email, status: 'pending', locale, readerId });
        // A new confirmation replaces the one before: only the latest link confirms.
        const { token, jti } = tokens.sign('confirm', row.id, CONFIRM_TTL_SECONDS);
        await repo.update(tx, row.id, { status: 'pending', confirmJti: jti, readerId, locale: locale ?? row.locale });
        await outbox.enqueue(tx, {
          mediaId: ctx.mediaId,
          kind: 'confirmation',
          subscriptionId: row.id,
          recipients: [email],
          ...confirmationMail(email, token, listName),
          state: 'queued',
        });
        return true;
      });
      if (queued) await deps.kick(ctx);
      return { status: vouched || (!list.doubleOptIn && reader && readerEmail === email) ? 'subscribed' : 'accepted' };
    },

    /** Confirms a pending subscription with the latest token sent to it: once. */
    async confirm(ctx: RequestContext, token: string): Promise<SubscriptionRow> {
      const claims = tokens.verify(token, 'confirm');
      const row = claims && (await repo.confirm(ctx.db, claims.subscriptionId, claims.jti));
      if (!row) throw messengerErrors.invalidToken();
      return row;
    },

    /** One-click unsubscribe (RFC 8058): idempotent while the token is good. */
    async unsubscribeByToken(ctx: RequestContext, token: string): Promise<void> {
      const claims = tokens.verify(token, 'unsubscribe');
      if (!claims || !(await repo.findById(ctx.db, claims.subscriptionId))) throw messengerErrors.invalidToken();
      await repo.unsubscribe(ctx.db, eq(subscriptionsTable.id, claims.subscriptionId));
    },

    /** The unsubscribe token of a subscription (the newsletter's List-Unsubscribe). */
    unsubscribeToken: (subscriptionId: string) => tokens.sign('unsubscribe', subscriptionId, UNSUBSCRIBE_TTL_SECONDS).token,

    listForReader: (ctx: RequestContext, query: PagingQuery) => repo.listByReader(ctx.db, ctx.mediaId, readerOf(ctx)!.subject, query),

    async unsubscribeAllForReader(ctx: RequestContext): Promise<void> {
      await repo.unsubscribe(ctx.db, and(eq(subscriptionsTable.mediaId, ctx.mediaId), eq(subscriptionsTable.readerId, readerOf(ctx)!.subject)));
    },

    async unsubscribeForReader(ctx: RequestContext, id: string): Promise<void> {
      const row = await repo.find(ctx.db, ctx.mediaId, id);
      if (!row || row.readerId !== readerOf(ctx)!.subject) throw messengerErrors.subscriptionNotFound();
      await repo.unsubscribe(ctx.db, eq(subscriptionsTable.id, id));
    },

    suppress: (ctx: RequestContext, emails: string[], status: 'bounced' | 'complained') => repo.suppress(ctx.db, ctx.mediaId, emails, status),
  };
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
