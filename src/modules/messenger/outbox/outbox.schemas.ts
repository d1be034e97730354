import { z } from 'zod';
import { isoTimestamp, pagingQuery, uuid } from '../../../shared/schemas.js';

export const OUTBOX_STATES = ['queued', 'sending', 'sent', 'delivered', 'bounced', 'complained', 'failed', 'cancelled', 'not_sent'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];
export const MESSAGE_KINDS = ['newsletter', 'confirmation', 'mailer'] as const;

const outboxFields = {
  id: uuid,
  kind: z.enum(MESSAGE_KINDS),
  newsletter_id: uuid.nullable(),
  subscription_id: uuid.nullable(),
  to: z.array(z.string()),
  subject: z.string(),
  state: z
    .enum(OUTBOX_STATES)
    .describe(
      'queued → sending → sent (→ delivered, bounced, complained from the provider); failed after its attempts; cancelled when the address left the list first; not_sent when no SMTP_URL is configured',
    ),
  attempts: z.int(),
  last_error: z.string().nullable(),
  message_id: z.string().describe('The Message-ID header: the same for every attempt'),
  sent_at: isoTimestamp.nullable(),
  delivered_at: isoTimestamp.nullable(),
  inserted_at: isoTimestamp,
  updated_at: isoTimestamp,
};

export const outboxItemSchema = z.object(outboxFields).meta({ id: 'OutboxMessageSummary' });
export const outboxMessageSchema = z
  .object({ ...outboxFields, html: z.string(), text: z.string(), headers: z.record(z.string(), z.string()) })
  .meta({ id: 'OutboxMessage' });

export const outboxQuery = pagingQuery.extend({
  state: z.enum(OUTBOX_STATES).optional(),
  newsletter_id: uuid.optional(),
});
export type OutboxQuery = z.output<typeof outboxQuery>;
