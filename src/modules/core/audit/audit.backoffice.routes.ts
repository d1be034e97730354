import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { list } from '../../../shared/envelopes.js';
import { RECORD_ACTIONS } from '../../../shared/http/effects.js';
import { route } from '../../../shared/http/route.js';
import { wireOf, wirePlan } from '../../../shared/record/index.js';
import { isoTimestamp, listOf, pagingQuery, timestampInput, uuid } from '../../../shared/schemas.js';
import { coreTags } from '../core.tags.js';
import type { AuditService } from './audit.service.js';

const auditEntrySchema = z
  .object({
    id: uuid,
    inserted_at: isoTimestamp.describe('When the write happened (its transaction time)'),
    key_id: uuid.describe('The API key that wrote'),
    key_name: z.string().describe("The key's name at the time"),
    operation_id: z.string().describe('The operationId of the write'),
    action: z.enum(RECORD_ACTIONS),
    record_kind: z.string().describe('The record written: `content`, `category`, `media_block`…'),
    record_id: z.string().nullable().describe("The record's id; null for a write that names none"),
    fields: z.array(z.string()).describe('The names of the fields the request set (never their values; credentials left out)'),
  })
  .meta({ id: 'AuditEntry' });

/** An entry on the wire, in its schema's order (the read's timestamps are ISO text from SQL). */
const auditPlan = wirePlan(auditEntrySchema);

const name = z.string().min(1).max(100);
const auditQuery = pagingQuery.extend({
  record_kind: name.regex(/^[a-z_]+$/).optional().describe('Only writes of this kind of record'),
  record_id: uuid.optional().describe('Only writes of this record'),
  key_id: uuid.optional().describe('Only writes by this API key'),
  operation_id: name.regex(/^[A-Za-z]+$/).optional().describe('Only this operation (`updateContent`)'),
  from: timestampInput.optional().describe('Only writes at or after this time'),
  to: timestampInput.optional().describe('Only writes before this time'),
});

export const auditBackofficeRoutes: FastifyPluginAsyncZod<{ audit: AuditService }> = async (app, { audit }) => {
  route(app, {
    method: 'GET',
    url: '/audit-log',
    operationId: 'listAuditLog',
    summary: 'List the audit log',
    description:
      "Every Backoffice write of the key's media, newest first: when, which key, which operation, which record and the names of the fields it set. " +
      'Filtered by record (`record_kind`, `record_id`), key (`key_id`), operation (`operation_id`) and time (`from` inclusive, `to` exclusive). ' +
      'Entries older than AUDIT_RETENTION_DAYS are pruned daily.',
    tag: coreTags.audit,
    access: { permission: 'admin:read' },
    querystring: auditQuery,
    response: { 200: listOf(auditEntrySchema) },
    handler: async (ctx, { query }, reply) => list(reply.request, await audit.page(ctx, query), (row) => wireOf(row, auditPlan) as z.input<typeof auditEntrySchema>),
  });
};
