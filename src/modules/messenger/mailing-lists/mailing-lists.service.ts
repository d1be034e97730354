import type { Executor } from '../../../db/client.js';
import { type RequestContext, transaction } from '../../../shared/context.js';
import { namedLocaleEntries as localeEntries } from '../../../shared/named-locales.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { messengerErrors } from '../messenger.errors.js';
import { type MailingListsRepository, mailingListAggregate } from './mailing-lists.repository.js';
import type { MailingListCreate, MailingListUpdate } from './mailing-lists.schemas.js';


export interface MessengerCore {
  /** 400 when a locale is not one of the media's. */
  assertLocales: (mediaId: string, entries: Array<{ locale: string }>) => Promise<void>;
}

export function createMailingListsService(deps: { repo: MailingListsRepository; core: MessengerCore }) {
  const { repo, core } = deps;

  const load = async (executor: Executor, mediaId: string, id: string, view?: 'public') => {
    const row = await repo.find(executor, mediaId, id, view);
    if (!row) throw messengerErrors.mailingListNotFound();
    return row;
  };

  return {
    list: (ctx: RequestContext, query: PagingQuery) => repo.list(ctx.db, ctx.mediaId, query),
    listPublic: (ctx: RequestContext, query: PagingQuery) => repo.list(ctx.db, ctx.mediaId, query, 'public'),
    get: (ctx: RequestContext, id: string) => load(ctx.db, ctx.mediaId, id),

    /** The live list (public ones only when `view` says so), or undefined. */
    find: (executor: Executor, mediaId: string, id: string, view?: 'public') => repo.find(executor, mediaId, id, view),

    async create(ctx: RequestContext, input: MailingListCreate) {
      await core.assertLocales(ctx.mediaId, input.locales);
      return transaction(ctx, async (tx) => {
        const id = await repo.insert(tx, { mediaId: ctx.mediaId, isPublic: input.is_public ?? false, doubleOptIn: input.double_opt_in ?? true });
        await mailingListAggregate.replace(tx, 'locales', id, localeEntries(input.locales));
        return load(tx, ctx.mediaId, id);
      });
    },

    async update(ctx: RequestContext, id: string, patch: MailingListUpdate) {
      if (patch.locales) await core.assertLocales(ctx.mediaId, patch.locales);
      return transaction(ctx, async (tx) => {
        if (!(await mailingListAggregate.lock(tx, id, ctx.mediaId))) throw messengerErrors.mailingListNotFound();
        await repo.update(tx, id, {
          ...(patch.is_public !== undefined && { isPublic: patch.is_public }),
          ...(patch.double_opt_in !== undefined && { doubleOptIn: patch.double_opt_in }),
        });
        if (patch.locales) await mailingListAggregate.replace(tx, 'locales', id, localeEntries(patch.locales));
        return load(tx, ctx.mediaId, id);
      });
    },

    async remove(ctx: RequestContext, id: string): Promise<void> {
      const deleted = await transaction(ctx, (tx) => mailingListAggregate.softDelete(tx, id, ctx.mediaId));
      if (!deleted) throw messengerErrors.mailingListNotFound();
    },

    async restore(ctx: RequestContext, id: string) {
      return transaction(ctx, async (tx) => {
        if ((await mailingListAggregate.restore(tx, id, ctx.mediaId)) === 'not_found') throw messengerErrors.mailingListNotFound();
        return load(tx, ctx.mediaId, id);
      });
    },
  };
}

export type MailingListsService = ReturnType<typeof createMailingListsService>;
