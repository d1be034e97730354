import { z } from 'zod';
import type { RequestContext } from '../../../shared/context.js';
import { messengerErrors } from '../messenger.errors.js';
import type { OutboxService } from '../outbox/outbox.service.js';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service.js';

const recipientList = z.array(z.looseObject({ emailAddress: z.string() })).max(1000);

/** An SES notification as SNS delivers it in `Message` (only the fields read here). */
const notification = z.looseObject({
  notificationType: z.string(),
  mail: z
    .looseObject({
      destination: z.array(z.string()).max(1000).optional(),
      commonHeaders: z.looseObject({ messageId: z.string().optional() }).optional(),
    })
    .optional(),
  bounce: z.looseObject({ bounceType: z.string().optional(), bouncedRecipients: recipientList.optional() }).optional(),
  complaint: z.looseObject({ complainedRecipients: recipientList.optional() }).optional(),
  delivery: z.looseObject({ recipients: z.array(z.string()).max(1000).optional() }).optional(),
});

const OUR_MESSAGE_ID = /^<?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})@[^>]+>?$/i;
const normalise = (address: string) => {
  // "Name <a@b>" as SES may write it.
  const angle = /<([^>]+)>/.exec(address);
  return (angle ? angle[1]! : address).trim().toLowerCase();
};

/**
 * The e-mail provider's delivery events (SES through SNS). A permanent bounce or a complaint
 * suppresses the addresses' subscriptions of the key's media and marks the message; a
 * delivery marks the message delivered. Nothing else is acted upon: an SNS subscription
 * confirmation is ignored, and no URL in a message is ever fetched.
 */
export function createMailEventsService(deps: { outbox: OutboxService; subscriptions: SubscriptionsService }) {
  return {
    async receive(ctx: RequestContext, body: { Message?: unknown; Type?: unknown }): Promise<'processed' | 'ignored'> {
      // SNS's own messages to the endpoint (SubscriptionConfirmation, UnsubscribeConfirmation) are not
      // notifications: their SubscribeURL is never visited.
      if (typeof body.Type === 'string' && body.Type !== 'Notification') return 'ignored';
      const message = body.Message;
      if (typeof message !== 'string') throw messengerErrors.mailEventInvalid('Message must be a string holding the notification as JSON');
      let json: unknown;
      try {
        json = JSON.parse(message);
      } catch {
        throw messengerErrors.mailEventInvalid('Message is not JSON');
      }
      // SNS's own messages (SubscriptionConfirmation, UnsubscribeConfirmation) carry `Type`, not a notification.
      if (json && typeof json === 'object' && !Array.isArray(json) && 'Type' in json && !('notificationType' in json)) return 'ignored';
      const parsed = notification.safeParse(json);
      if (!parsed.success) throw messengerErrors.mailEventInvalid('Message is not an e-mail provider notification');
      const event = parsed.data;
      const ours = OUR_MESSAGE_ID.exec(event.mail?.commonHeaders?.messageId ?? '')?.[1];
      const mark = async (addresses: string[], state: 'delivered' | 'bounced' | 'complained') => {
        for (const address of addresses) await deps.outbox.markDelivery(ctx.db, ctx.mediaId, address, state, ours);
      };
      switch (event.notificationType) {
        case 'Bounce': {
          if (event.bounce?.bounceType !== 'Permanent') return 'ignored';
          const addresses = (event.bounce.bouncedRecipients ?? []).map((r) => normalise(r.emailAddress));
          await deps.subscriptions.suppress(ctx, addresses, 'bounced');
          await mark(addresses, 'bounced');
          return 'processed';
        }
        case 'Complaint': {
          const addresses = (event.complaint?.complainedRecipients ?? []).map((r) => normalise(r.emailAddress));
          await deps.subscriptions.suppress(ctx, addresses, 'complained');
          await mark(addresses, 'complained');
          return 'processed';
        }
        case 'Delivery': {
          const addresses = (event.delivery?.recipients ?? event.mail?.destination ?? []).map(normalise);
          await mark(addresses, 'delivered');
          return 'processed';
        }
        default:
          return 'ignored';
      }
    },
  };
}

export type MailEventsService = ReturnType<typeof createMailEventsService>;
