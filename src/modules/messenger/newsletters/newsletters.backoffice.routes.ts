import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { list, one } from '../../../shared/envelopes.js';
import { route } from '../../../shared/http/route.js';
import { dataOf, idParams, listOf, pagingQuery } from '../../../shared/schemas.js';
import { messengerTags } from '../messenger.tags.js';
import { toNewsletter } from './newsletters.mappers.js';
import { newsletterCreateBody, newsletterSchema } from './newsletters.schemas.js';
import type { NewslettersService } from './newsletters.service.js';

/** Newsletters: send a published content to a list, list a list's newsletters, one by id. */
export const newslettersBackofficeRoutes: FastifyPluginAsyncZod<{ newsletters: NewslettersService }> = async (app, { newsletters }) => {
  const tag = messengerTags.newsletters;

  route(app, {
    method: 'POST',
    url: '/mailing-lists/:id/newsletters',
    operationId: 'sendNewsletter',
    summary: 'Send a published content to a mailing list',
    description:
      'Renders the content (title, lead, blocks as HTML and text) and queues one message for every subscribed address, in one transaction; ' +
      'the durable send queue sends them with List-Unsubscribe and List-Unsubscribe-Post (RFC 8058) headers. 404 content_not_found when the content is not published.',
    tag,
    access: { permission: 'messenger:write' },
    params: idParams,
    body: newsletterCreateBody,
    response: { 201: dataOf(newsletterSchema) },
    errors: [404],
    handler: async (ctx, { params, body }) => one(toNewsletter(await newsletters.send(ctx, params.id, body))),
  });

  route(app, {
    method: 'GET',
    url: '/mailing-lists/:id/newsletters',
    operationId: 'listMailingListNewsletters',
    summary: 'Newsletters of a mailing list',
    tag,
    access: { permission: 'messenger:read' },
    params: idParams,
    querystring: pagingQuery,
    response: { 200: listOf(newsletterSchema) },
    handler: async (ctx, { params, query }, reply) => list(reply.request, await newsletters.listByList(ctx, params.id, query), toNewsletter),
  });

  route(app, {
    method: 'GET',
    url: '/newsletters/:id',
    operationId: 'getNewsletter',
    summary: 'Newsletter by id, with its messages by delivery state',
    tag,
    access: { permission: 'messenger:read' },
    params: idParams,
    response: { 200: dataOf(newsletterSchema) },
    handler: async (ctx, { params }) => one(toNewsletter(await newsletters.get(ctx, params.id))),
  });
};
