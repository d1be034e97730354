import { sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type AggregateRow, aggregate, part } from '../../../shared/aggregate.js';
import type { RequestContext } from '../../../shared/context.js';
import type { ReaderView } from '../../../shared/http/reader.js';
import { type NamedLocaleInput, namedLocaleColumns, namedLocaleEntries, toNamedLocales, toReaderNamed } from '../../../shared/named-locales.js';
import { type RecordDeps, declaredService, defineRecord, named } from '../../../shared/record/index.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { stamped } from '../../../shared/time.js';
import { messengerErrors } from '../messenger.errors.js';
import { messengerTags } from '../messenger.tags.js';
import { mailingListCreateBody, mailingListSchema, mailingListUpdateBody } from './mailing-lists.schemas.js';
import { mailingListLocales, mailingLists } from './mailing-lists.table.js';

/** A mailing list with its locale entries, read in one statement; `public`: what readers are offered. */
export const mailingListAggregate = aggregate(mailingLists, {
  owner: mailingLists.mediaId,
  conflict: messengerErrors.localeTaken,
  views: { public: sql`${mailingLists.isPublic}` },
  parts: {
    locales: part(mailingListLocales, { parent: mailingListLocales.mailingListId, match: ['locale'], columns: namedLocaleColumns }),
  },
});

export type MailingListRecord = AggregateRow<typeof mailingLists, typeof mailingListAggregate.parts>;

export const toMailingList = (row: MailingListRecord) =>
  stamped({ id: row.id, locales: toNamedLocales(row.locales), is_public: row.isPublic, double_opt_in: row.doubleOptIn }, row);

/** Reader view: the list's name and description in the asked language. */
export const toReaderMailingList = (row: MailingListRecord, view: Pick<ReaderView, 'locale' | 'fallback'>) =>
  toReaderNamed(row, view, { double_opt_in: row.doubleOptIn });

/** The Backoffice's mailing lists; readers' list is messenger's own route (its path and sentences are the newsletter's). */
export const mailingListRecord = defineRecord({
  ...named('mailing list', 'mailing lists'),
  area: { read: 'messenger:read', write: 'messenger:write' },
  path: '/mailing-lists',
  tags: { backoffice: messengerTags.mailingLists },
  agg: mailingListAggregate,
  schemas: { item: mailingListSchema, create: mailingListCreateBody, update: mailingListUpdateBody },
  notFound: messengerErrors.mailingListNotFound,
  conflict: messengerErrors.localeTaken,
  toWire: toMailingList,
  // An entry sent without a description has none (not the one it had).
  prepare: (input) => (input.locales ? { ...input, locales: namedLocaleEntries(input.locales as NamedLocaleInput[]) } : input),
  errors: [],
  docs: {
    list: { description: 'Live mailing lists of the media, newest first.' },
    create: { description: undefined },
    update: { description: undefined },
    remove: { description: 'Its locale entries go with it; restore brings them back.' },
    restore: { description: undefined },
  },
});

/** Mailing lists: the declared record's service, with the lookup subscriptions and newsletters make. */
export function createMailingListsService(deps: RecordDeps) {
  return {
    ...declaredService(deps, mailingListRecord),
    /** The public lists readers are offered, newest first. */
    listPublic: (ctx: RequestContext, query: PagingQuery) => mailingListAggregate.page(deps.pager, ctx.db, ctx.mediaId, query, { view: 'public' }),
    /** The live list (public ones only when `view` says so), or undefined. */
    find: (executor: Executor, mediaId: string, id: string, view?: 'public') => mailingListAggregate.find(executor, id, mediaId, view),
  };
}

export type MailingListsService = ReturnType<typeof createMailingListsService>;
