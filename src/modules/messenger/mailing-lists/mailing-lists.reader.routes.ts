import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readerList, readerListOf, readerListQuery } from '../../../shared/http/reader.js';
import { route } from '../../../shared/http/route.js';
import { messengerTags } from '../messenger.tags.js';
import { readerMailingListSchema } from './mailing-lists.schemas.js';
import { type MailingListsService, toReaderMailingList } from './mailing-lists.record.js';

/** /api/media/v1/newsletter/mailing-lists: the lists offered to readers. */
export const mailingListsReaderRoutes: FastifyPluginAsyncZod<{ mailingLists: MailingListsService }> = async (app, { mailingLists }) => {
  route(app, {
    method: 'GET',
    url: '/newsletter/mailing-lists',
    operationId: 'readerListMailingLists',
    serves: 'mailing_list',
    summary: 'Mailing lists offered to readers',
    description: 'Public, live mailing lists of the media, newest first, named in the asked language.',
    tag: messengerTags.readerNewsletter,
    access: { scope: 'media:read' },
    querystring: readerListQuery,
    response: { 200: readerListOf(readerMailingListSchema) },
    handler: async (ctx, { query }, reply) => readerList(reply.request, await mailingLists.listPublic(ctx, query), query.locale, toReaderMailingList),
  });
};
