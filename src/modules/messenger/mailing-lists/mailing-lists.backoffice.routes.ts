import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { backofficeResource } from '../../../shared/http/resource.js';
import { messengerTags } from '../messenger.tags.js';
import { toMailingList } from './mailing-lists.mappers.js';
import { mailingListCreateBody, mailingListSchema, mailingListUpdateBody } from './mailing-lists.schemas.js';
import type { MailingListsService } from './mailing-lists.service.js';
import { mailingListAggregate } from './mailing-lists.repository.js';

/** /messenger/v2/mailing-lists: list, create, by id, update, soft delete, restore. */
export const mailingListsBackofficeRoutes: FastifyPluginAsyncZod<{ mailingLists: MailingListsService }> = async (app, { mailingLists }) => {
  const resource = backofficeResource(app, {
    path: '/mailing-lists',
    kind: 'mailing_list',
    lock: mailingListAggregate,
    names: { one: 'MailingList', many: 'MailingLists' },
    tag: messengerTags.mailingLists,
    item: mailingListSchema,
    map: toMailingList,
    read: 'messenger:read',
    write: 'messenger:write',
  });
  resource.list({ summary: 'List mailing lists', description: 'Live mailing lists of the media, newest first.' }, mailingLists.list);
  resource.create({ summary: 'Create a mailing list', body: mailingListCreateBody }, mailingLists.create);
  resource.get({ summary: 'Mailing list by id' }, mailingLists.get);
  resource.update({ summary: 'Update a mailing list', body: mailingListUpdateBody }, mailingLists.update);
  resource.remove({ summary: 'Delete a mailing list (soft)', description: 'Its locale entries go with it; restore brings them back.' }, mailingLists.remove);
  resource.restore({ summary: 'Restore a deleted mailing list', errors: [409] }, mailingLists.restore);
};
