import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deprecationMarker } from '../../../shared/http/deprecation.js';
import { route } from '../../../shared/http/route.js';
import { messengerTags } from '../messenger.tags.js';
import type { MailEventsService } from './mail-events.service.js';

/** SNS's envelope: `Message` holds the notification; SNS adds fields of its own (Type, MessageId, Signature…). */
const eventsBody = z
  .looseObject({
    Message: z.unknown().optional().describe('The provider notification (SES: Bounce, Complaint, Delivery) as a JSON string'),
    Type: z.string().max(100).optional().describe("SNS's message type; anything but Notification is ignored"),
  })
  .meta({ id: 'MailEvent' });

/** POST /messenger/v2/mailprovider/events (deprecated, spec 6 and 9). */
export const mailEventsBackofficeRoutes: FastifyPluginAsyncZod<{ mailEvents: MailEventsService; sunset: Date }> = async (app, { mailEvents, sunset }) => {
  const markDeprecated = deprecationMarker(sunset);
  route(app, {
    method: 'POST',
    url: '/mailprovider/events',
    operationId: 'receiveMailEvents',
    record: { kind: 'event' },
    summary: 'Mail delivery events (deprecated)',
    description:
      'Delivery notifications of the e-mail provider (SES through SNS). The API key goes in x-api-key or in the `api_key` query parameter. ' +
      'A permanent bounce or a complaint suppresses the addresses in every list of the media; a delivery marks the message delivered. ' +
      'Answers `processed`, or `ignored` for anything else (SNS subscription confirmations included: no URL of a message is ever fetched); ' +
      '422 when `Message` is missing, not a string, or not such a notification. Removed since 6.4.0.',
    tag: messengerTags.mailEvents,
    access: { permission: 'messenger:write', apiKeyInQuery: true },
    deprecated: true,
    querystring: z.object({ api_key: z.string().max(256).optional().describe('The API key, when not sent as x-api-key') }),
    body: eventsBody,
    response: { 200: z.object({ status: z.enum(['processed', 'ignored']) }).meta({ id: 'MailEventAnswer' }) },
    errors: [422],
    config: { responseHeaders: ['Sunset'] },
    handler: async (ctx, { body }, reply) => {
      markDeprecated(reply);
      return { status: await mailEvents.receive(ctx, body) };
    },
  });
};
