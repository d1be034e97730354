import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { route } from '../../../shared/http/route.js';
import { dataOf } from '../../../shared/schemas.js';
import { messengerTags } from '../messenger.tags.js';
import type { OutboxMappers } from '../outbox/outbox.mappers.js';
import { outboxItemSchema } from '../outbox/outbox.schemas.js';
import { mailerSendBody } from './mailer.schemas.js';
import type { MailerService } from './mailer.service.js';

/** Messages a minute per client. */
export const MAILER_PER_CLIENT = 10;

/** POST /api/media/v1/mailer/send. */
export const mailerReaderRoutes: FastifyPluginAsyncZod<{ mailer: MailerService; mappers: OutboxMappers }> = async (app, { mailer, mappers }) => {
  route(app, {
    method: 'POST',
    url: '/mailer/send',
    operationId: 'readerMailerSend',
    summary: 'Send an e-mail from a template',
    description:
      "One message from one of the media's templates (`share_content`: a published content; `contact`: a message with a Reply-To), to at most 10 recipients; " +
      `queued in the outbox and sent by the send queue. Needs an application token with the scope mailer:send; ${MAILER_PER_CLIENT} a minute per client.`,
    tag: messengerTags.readerMailer,
    access: { scope: 'mailer:send' },
    body: mailerSendBody,
    response: { 202: dataOf(outboxItemSchema) },
    errors: [404],
    config: {
      rateLimit: {
        max: MAILER_PER_CLIENT,
        timeWindow: 60_000,
        keyGenerator: (req: { ip: string; bearer?: { subject: string } }) => `mailer:${req.bearer?.subject ?? req.ip}`,
      },
    },
    handler: async (ctx, { body }) => {
      const row = await mailer.send(ctx, body);
      return one(mappers.toOutboxItem({ ...row, subject: row.subject ?? '' }));
    },
  });
};
