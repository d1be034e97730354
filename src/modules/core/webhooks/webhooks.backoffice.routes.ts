import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { backofficeResource } from '../../../shared/http/resource.js';
import { route } from '../../../shared/http/route.js';
import { backofficeRecordOf, wireOf, wirePlan } from '../../../shared/record/index.js';
import { dataOf } from '../../../shared/schemas.js';
import { coreTags } from '../core.tags.js';
import { type WebhookDeliveryWire, type WebhookWire, createdWebhookSchema, deliveryParams, webhookDeliverySchema, webhookSchema, webhookSchemas } from './webhooks.schemas.js';
import type { WebhooksService } from './webhooks.service.js';
import { webhookAggregate } from './webhooks.repository.js';

const deliveryPlan = wirePlan(webhookDeliverySchema);
const webhookPlan = wirePlan(webhookSchema);
const toDelivery = (row: object) => wireOf(row, deliveryPlan) as WebhookDeliveryWire;

export const webhooksBackofficeRoutes: FastifyPluginAsyncZod<{ webhooks: WebhooksService }> = async (app, { webhooks }) => {
  const resource = backofficeResource(app, {
    path: '/webhooks',
    kind: 'webhook',
    lock: webhookAggregate,
    webhooks: false,
    names: { one: 'Webhook', many: 'Webhooks' },
    tag: coreTags.webhooks,
    item: webhookSchema,
    map: (row: object) => backofficeRecordOf<WebhookWire>(row, webhookPlan),
    read: 'admin:read',
    write: 'admin:write',
  });

  // Create answers the signing secret once, beside the record: not the standard create.
  route(app, {
    method: 'POST',
    url: '/webhooks',
    operationId: 'createWebhook',
    record: { kind: 'webhook', webhooks: false },
    summary: 'Create a webhook',
    description:
      'Answers 201 with the webhook and its signing secret (`data.secret`, Standard Webhooks `whsec_…`), shown this once. ' +
      'The url must be https and must not resolve to a loopback, private or link-local address (400 `unsafe_webhook_url`), unless WEBHOOK_ALLOW_PRIVATE is set.',
    tag: coreTags.webhooks,
    access: { permission: 'admin:write' },
    // A stored replay would keep the secret at rest beside the one the webhook keeps: no Idempotency-Key.
    idempotent: false,
    body: webhookSchemas.create,
    response: { 201: dataOf(createdWebhookSchema) },
    handler: async (ctx, { body }) => {
      const { row, secret } = await webhooks.create(ctx, body);
      return one({ ...backofficeRecordOf<WebhookWire>(row, webhookPlan), secret });
    },
  });

  resource.standard(webhooks as never, {
    label: 'webhook',
    plural: 'webhooks',
    update: webhookSchemas.update,
    only: ['list', 'get', 'update', 'remove', 'restore'],
    notes: { update: 'A new url is checked as at creation (400 `unsafe_webhook_url`); the secret stays.' },
  });

  backofficeResource(app, {
    path: '/webhooks/:id/deliveries',
    kind: 'delivery',
    webhooks: false,
    names: { one: 'WebhookDelivery', many: 'WebhookDeliveries' },
    tag: coreTags.webhooks,
    item: webhookDeliverySchema,
    map: toDelivery,
    read: 'admin:read',
    write: 'admin:write',
  }).listUnder(
    {
      url: '/webhooks/:id/deliveries',
      operationId: 'listWebhookDeliveries',
      summary: "List a webhook's deliveries",
      description: 'Newest first; each delivery with every try: its status code or error, duration and time. Deliveries that ended (succeeded or failed) are kept WEBHOOK_DELIVERY_RETENTION_DAYS (30 by default), then pruned daily.',
    },
    webhooks.deliveries,
  );

  route(app, {
    method: 'POST',
    url: '/webhooks/:id/deliveries/:delivery_id/redeliver',
    operationId: 'redeliverWebhookDelivery',
    record: { kind: 'delivery', param: 'delivery_id', webhooks: false },
    summary: 'Redeliver a delivery',
    description: 'Sends the same event (same `webhook-id` and body, a fresh signature) again now; a failure is retried for another day. Answers 202 with the delivery.',
    tag: coreTags.webhooks,
    access: { permission: 'admin:write' },
    params: deliveryParams,
    idempotent: false,
    response: { 202: dataOf(webhookDeliverySchema) },
    handler: async (ctx, { params }) => one(toDelivery(await webhooks.redeliver(ctx, params.id, params.delivery_id))),
  });
};
