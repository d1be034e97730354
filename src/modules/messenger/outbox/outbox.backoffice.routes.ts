import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { list, one } from '../../../shared/envelopes.js';
import { route } from '../../../shared/http/route.js';
import { dataOf, idParams, listOf } from '../../../shared/schemas.js';
import { messengerTags } from '../messenger.tags.js';
import type { OutboxMappers } from './outbox.mappers.js';
import { outboxItemSchema, outboxMessageSchema, outboxQuery } from './outbox.schemas.js';
import type { OutboxService } from './outbox.service.js';

/** /messenger/v2/outbox: what was sent or is waiting. */
export const outboxBackofficeRoutes: FastifyPluginAsyncZod<{ outbox: OutboxService; mappers: OutboxMappers }> = async (app, { outbox, mappers }) => {
  const tag = messengerTags.outbox;

  route(app, {
    method: 'GET',
    url: '/outbox',
    operationId: 'listOutboxMessages',
    summary: 'Messages sent or waiting',
    description: 'Newest first, without bodies; `state` and `newsletter_id` narrow the list. Without SMTP_URL, messages stay `not_sent` here.',
    tag,
    access: { permission: 'messenger:read' },
    querystring: outboxQuery,
    response: { 200: listOf(outboxItemSchema) },
    handler: async (ctx, { query }, reply) => list(reply.request, await outbox.list(ctx, query), mappers.toOutboxItem),
  });

  route(app, {
    method: 'GET',
    url: '/outbox/:id',
    operationId: 'getOutboxMessage',
    summary: 'Outbox message by id, with its body',
    description: "A newsletter's message shows the newsletter's body; each recipient's copy adds an unsubscribe footer when sent.",
    tag,
    access: { permission: 'messenger:read' },
    params: idParams,
    response: { 200: dataOf(outboxMessageSchema) },
    handler: async (ctx, { params }) => one(mappers.toOutboxMessage(await outbox.get(ctx, params.id))),
  });
};
