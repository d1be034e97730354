import { z } from 'zod';
import { isoTimestamp, locale, uuid } from '../../../shared/schemas.js';

export const newsletterSchema = z
  .object({
    id: uuid,
    mailing_list_id: uuid,
    content_id: uuid,
    locale: z.string().nullable().describe('The language of the content that was sent'),
    subject: z.string(),
    status: z.enum(['sending', 'done']).describe('`sending` while any message is queued or being sent'),
    recipients: z
      .object({
        total: z.int(),
        queued: z.int(),
        sending: z.int(),
        sent: z.int(),
        delivered: z.int(),
        bounced: z.int(),
        complained: z.int(),
        failed: z.int(),
        cancelled: z.int(),
        not_sent: z.int(),
      })
      .describe('Messages of the newsletter by delivery state'),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .meta({ id: 'Newsletter' });

export const newsletterCreateBody = z
  .strictObject({
    content_id: uuid.describe('A published content of the media'),
    locale: locale.optional().describe("The content's language to send (the media's default when left out)"),
    subject: z.string().trim().min(1).max(300).optional().describe("The content's title when left out"),
  })
  .meta({ id: 'NewsletterCreate' });
export type NewsletterCreate = z.output<typeof newsletterCreateBody>;
