import { z } from 'zod';
import { locale, uuid } from '../../../shared/schemas.js';
import { emailAddress } from '../subscriptions/subscriptions.schemas.js';

const recipients = z.array(emailAddress).min(1).max(10).describe('At most 10 addresses');

export const mailerSendBody = z
  .discriminatedUnion('template', [
    z.strictObject({
      template: z.literal('share_content'),
      to: recipients,
      content_id: uuid.describe('A published content of the media'),
      locale: locale.optional(),
      sender_name: z.string().trim().min(1).max(100).optional(),
      message: z.string().trim().max(1000).optional().describe('A personal note, sent as plain text'),
    }),
    z.strictObject({
      template: z.literal('contact'),
      to: recipients,
      name: z.string().trim().min(1).max(100),
      email: emailAddress.describe('Where an answer should go (Reply-To)'),
      subject: z.string().trim().min(1).max(200),
      message: z.string().trim().min(1).max(5000),
    }),
  ])
  .meta({ id: 'MailerSend' });
export type MailerSend = z.output<typeof mailerSendBody>;
