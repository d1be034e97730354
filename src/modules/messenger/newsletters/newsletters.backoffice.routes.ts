import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { backofficeResource } from '../../../shared/http/resource.js';
import { messengerTags } from '../messenger.tags.js';
import { toNewsletter } from './newsletters.mappers.js';
import { newsletterCreateBody, newsletterSchema } from './newsletters.schemas.js';
import type { NewslettersService } from './newsletters.service.js';

/** Newsletters: send a published content to a list, list a list's newsletters, one by id. */
export const newslettersBackofficeRoutes: FastifyPluginAsyncZod<{ newsletters: NewslettersService }> = async (app, { newsletters }) => {
  const resource = backofficeResource(app, {
    path: '/newsletters',
    kind: 'newsletter',
    names: { one: 'Newsletter', many: 'Newsletters' },
    tag: messengerTags.newsletters,
    item: newsletterSchema,
    map: toNewsletter,
    read: 'messenger:read',
    write: 'messenger:write',
  });

  resource.createUnder(
    {
      url: '/mailing-lists/:id/newsletters',
      operationId: 'sendNewsletter',
      summary: 'Send a published content to a mailing list',
      description:
        'Renders the content (title, lead, blocks as HTML and text) and queues one message for every subscribed address, in one transaction; ' +
        'the durable send queue sends them with List-Unsubscribe and List-Unsubscribe-Post (RFC 8058) headers. 404 content_not_found when the content is not published.',
      body: newsletterCreateBody,
      errors: [404],
    },
    newsletters.send,
  );
  resource.listUnder(
    { url: '/mailing-lists/:id/newsletters', operationId: 'listMailingListNewsletters', summary: 'Newsletters of a mailing list' },
    newsletters.listByList,
  );
  resource.get({ summary: 'Newsletter by id, with its messages by delivery state' }, newsletters.get);
};
