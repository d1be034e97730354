import { z } from 'zod';
import { isoTimestamp, locale, pagingQuery, uuid } from '../../../shared/schemas.js';

export const SUBSCRIPTION_STATUSES = ['pending', 'subscribed', 'unsubscribed', 'bounced', 'complained'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
/** Addresses the service never mails again unless their owner subscribes anew (bounced and complained: never). */
export const SUPPRESSED: readonly SubscriptionStatus[] = ['unsubscribed', 'bounced', 'complained'];

/** An e-mail address as stored: trimmed, lower case, then checked. */
export const emailAddress = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ message: 'must be an e-mail address' }))
  .meta({ example: 'reader@example.com' });

/** What a reader sees of a subscription; the Backoffice adds reader_id. */
const subscriptionFields = {
  id: uuid,
  mailing_list_id: uuid,
  email: z.string(),
  locale: z.string().nullable(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  inserted_at: isoTimestamp,
  updated_at: isoTimestamp,
  confirmed_at: isoTimestamp.nullable(),
};

export const subscriptionSchema = z
  .object({
    ...subscriptionFields,
    reader_id: z.string().nullable().describe("The subscribing reader's token subject, when a signed-in reader subscribed"),
  })
  .meta({ id: 'Subscription' });

export const subscriptionsQuery = pagingQuery.extend({ status: z.enum(SUBSCRIPTION_STATUSES).optional() });
export type SubscriptionsQuery = z.output<typeof subscriptionsQuery>;

export const BULK_MAX = 1000;

export const bulkBody = z
  .strictObject({
    subscriptions: z
      .array(
        z.strictObject({
          // Checked row by row: an invalid address is refused with its reason, not the whole request.
          email: z.string().max(1000),
          locale: locale.optional(),
          status: z
            .enum(['subscribed', 'unsubscribed'])
            .optional()
            .describe('subscribed by default: the editor vouches for the consent of imported addresses'),
        }),
      )
      .min(1)
      .max(BULK_MAX),
  })
  .meta({ id: 'SubscriptionsBulk' });
export type BulkBody = z.output<typeof bulkBody>;

export const bulkResultSchema = z
  .object({
    created: z.int(),
    updated: z.int(),
    unchanged: z.int(),
    refused: z.int(),
    refusals: z.array(
      z.object({
        index: z.int().describe('Position of the row in the request'),
        email: z.string(),
        reason: z.enum(['invalid_email', 'duplicate', 'suppressed']),
      }),
    ),
  })
  .meta({ id: 'SubscriptionsBulkResult' });

// ---- Reader

export const subscribeBody = z
  .strictObject({
    mailing_list_id: uuid,
    email: emailAddress.optional().describe("Required unless a signed-in reader's token carries the address"),
    locale: locale.optional(),
  })
  .meta({ id: 'NewsletterSubscribe' });
export type SubscribeBody = z.output<typeof subscribeBody>;

export const subscribeAnswer = z
  .object({
    status: z
      .enum(['accepted', 'subscribed'])
      .describe(
        '`subscribed`: a signed-in reader whose provider vouches for the address is on the list. `accepted`: anything else; a confirmation mail goes out when the address may subscribe (the answer never tells whether it was on the list already)',
      ),
  })
  .meta({ id: 'NewsletterSubscribeAnswer' });

export const tokenBody = z.strictObject({ token: z.string().min(1).max(512) }).meta({ id: 'NewsletterToken' });
export const tokenQuery = z.object({ token: z.string().min(1).max(512) });

export const readerSubscriptionSchema = z.object(subscriptionFields).meta({ id: 'ReaderSubscription' });
