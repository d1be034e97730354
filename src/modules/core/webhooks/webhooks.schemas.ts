import { z } from 'zod';
import { RECORD_ACTIONS } from '../../../shared/http/effects.js';
import { recordSchemas } from '../../../shared/record/index.js';
import { isoTimestamp, uuid } from '../../../shared/schemas.js';

/** The actions a record's event names; `purge` carries the surrogate keys a write invalidates. */
export const WEBHOOK_ACTIONS = [...RECORD_ACTIONS, 'published'] as const;

const EVENT = new RegExp(`^(?:purge|\\*|(?:[a-z][a-z0-9_]{0,62}|\\*)\\.(?:${WEBHOOK_ACTIONS.join('|')}|\\*))$`);

export const webhookEvent = z
  .string()
  .regex(EVENT, `must be <record>.<${WEBHOOK_ACTIONS.join('|')}>, purge, or a * wildcard (category.*, *.deleted, *)`)
  .describe('An event name: `category.created`, `content.published`, `purge`; `*` stands for any record or action');

export const webhookSchemas = recordSchemas('Webhook', {
  fields: {
    url: z.string(),
    events: z.array(z.string()),
    active: z.boolean(),
    description: z.string().nullable(),
  },
  input: {
    url: z.url({ protocol: /^https?$/ }).max(2000).describe('Where events are POSTed: https (http only where WEBHOOK_ALLOW_PRIVATE is set); never a private or loopback address'),
    events: z
      .array(webhookEvent)
      .min(1)
      .max(100)
      .refine((list) => new Set(list).size === list.length, { message: 'each event may appear only once' }),
    active: z.boolean().optional().describe('An inactive webhook receives nothing (true when left out at creation)'),
    description: z.string().trim().max(500).nullable().optional(),
  },
  examples: {
    create: { url: 'https://hooks.example.com/media', events: ['content.*', 'purge'], description: 'CDN purge and search index' },
    update: { active: false },
  },
});

export const webhookSchema = webhookSchemas.item;
export type WebhookWire = z.input<typeof webhookSchema>;

export const createdWebhookSchema = webhookSchema
  .extend({
    secret: z
      .string()
      .describe('The signing secret (`whsec_` + base64 of 32 bytes, Standard Webhooks), shown in this answer only'),
  })
  .meta({ id: 'CreatedWebhook' });

export const webhookAttemptSchema = z.object({
  attempt: z.int().describe('1 for the first try'),
  status_code: z.int().nullable().describe("The receiver's HTTP status, null when there was no answer"),
  error: z.string().nullable().describe('Why the try failed (timeout, refused address, non-2xx), null on success'),
  duration_ms: z.int(),
  attempted_at: isoTimestamp,
});

export const webhookDeliverySchema = z
  .object({
    id: uuid,
    webhook_id: uuid,
    event_id: uuid.describe('The `webhook-id` header: the same on every try and redelivery'),
    event_type: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']).describe('pending: a try is due; failed: retries ran out (a day)'),
    attempts: z.array(webhookAttemptSchema),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDeliveryWire = z.input<typeof webhookDeliverySchema>;

export const deliveryParams = z.object({ id: uuid, delivery_id: uuid });
