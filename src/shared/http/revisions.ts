import { z } from 'zod';
import type { RequestContext } from '../context.js';
import { list, one } from '../envelopes.js';
import type { Page } from '../paging.js';
import type { Permission } from '../permissions.js';
import type { RevisionSource } from '../revisions.js';
import { type PagingQuery, dataOf, isoTimestamp, listOf, oncePer, pagingQuery, uuid } from '../schemas.js';
import { type Tag, type ZodApp, route } from './route.js';

type RevisionWire = z.output<typeof revisionSchema>;

/** Where revisions are kept (core's revisions service): what the routes below ask of it. */
export interface RevisionStore<Row = unknown> {
  page(ctx: RequestContext, source: RevisionSource, recordId: string, query: PagingQuery): Promise<Page<Row>>;
  toWire(row: Row): RevisionWire;
  get(ctx: RequestContext, source: RevisionSource, recordId: string, number: number): Promise<RevisionWire & { record: unknown }>;
  diff(ctx: RequestContext, source: RevisionSource, recordId: string, number: number, to: number | 'current' | undefined): Promise<z.input<typeof diffSchema>>;
  revert(ctx: RequestContext, source: RevisionSource, recordId: string, number: number): Promise<unknown>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The revisions of the kinds that keep them (buildApp decorates it with core's service). */
    revisions: RevisionStore;
  }
}

export const revisionSchema = z
  .object({
    id: uuid,
    number: z.number().int().describe('1, 2, … per record'),
    action: z.enum(['created', 'updated', 'deleted', 'restored', 'reverted']),
    inserted_at: isoTimestamp,
    key_id: uuid.nullable().describe('The API key that wrote it'),
    key_name: z.string().describe("The key's name at the time"),
    operation_id: z.string().describe('The operation that wrote it'),
    note: z.string().nullable().describe('The write\'s `X-Revision-Note`'),
  })
  .meta({ id: 'Revision' });

const changeSchema = z
  .object({
    op: z.enum(['add', 'remove', 'replace']),
    path: z.string().describe('A JSON pointer whose array steps are the entries\' natural keys (`/blocks/<id>/position`, `/locales/fr/title_html`), never indexes'),
    from: z.unknown().optional().describe('The value before (remove, replace)'),
    value: z.unknown().optional().describe('The value after (add, replace)'),
  })
  .meta({ id: 'RevisionChange' });

const diffSchema = z
  .object({
    from: z.number().int().nullable().describe('The revision compared from (null: before the first)'),
    to: z.union([z.number().int(), z.literal('current')]),
    changes: z.array(changeSchema),
  })
  .meta({ id: 'RevisionDiff' });

const revisionParams = z.object({ id: uuid, number: z.coerce.number().int().min(1).max(2_147_483_647) });
const diffQuery = z
  .object({
    to: z
      .union([z.literal('current'), z.coerce.number().int().min(1).max(2_147_483_647)])
      .optional()
      .describe('A revision number or `current` (the record as it is now); left out: from the revision before `{number}` to `{number}`'),
  })
  .strict();

/** A revision with its snapshot's schema: made once per snapshot schema (a component id is registered once). */
const revisionWith = (record: z.ZodType, one: string) => withRecordOf(record)(one);
const withRecordOf = oncePer((record: z.ZodType) => {
  let made: z.ZodType | undefined;
  return (one: string) => (made ??= revisionSchema.extend({ record }).meta({ id: `${one}Revision` }));
});

/**
 * The revision routes of a record kind that keeps them, under its record path (`/contents/:id`):
 * list, one with its snapshot, a diff, and a revert (`…/restore`, a write of its own whose revision
 * is `reverted`). Made from the kind's `RevisionSource`; the record's area permissions.
 */
export function revisionRoutes(
  app: ZodApp,
  o: { path: string; names: { one: string }; label: string; source: RevisionSource; tag: Tag; read: Permission; write: Permission },
) {
  const { source } = o;
  // The store is the app's, read when a request comes (the routes are declared before it is decorated in a test's own app).
  const store = (reply: { server: { revisions: RevisionStore } }) => reply.server.revisions;
  const base = `${o.path}/:id/revisions`;
  const withRecord = revisionWith(o.source.schema, o.names.one);
  route(app, {
    method: 'GET',
    url: base,
    operationId: `list${o.names.one}Revisions`,
    summary: `List revisions of a ${o.label}`,
    description: `The ${o.label}'s revisions, newest first, without their snapshots: one per successful write.`,
    tag: o.tag,
    access: { permission: o.read },
    params: z.object({ id: uuid }),
    querystring: pagingQuery,
    response: { 200: listOf(revisionSchema) },
    handler: async (ctx, { params, query }, reply) => list(reply.request, await store(reply).page(ctx, source, params.id, query), store(reply).toWire),
  });
  route(app, {
    method: 'GET',
    url: `${base}/:number`,
    operationId: `get${o.names.one}Revision`,
    summary: `A revision of a ${o.label}`,
    description: `The revision with \`record\`: the ${o.label}'s Backoffice shape after that write, with its parts served on routes of their own.`,
    tag: o.tag,
    access: { permission: o.read },
    params: revisionParams,
    response: { 200: dataOf(withRecord) },
    handler: async (ctx, { params }, reply) => one(await store(reply).get(ctx, source, params.id, params.number)),
  });
  route(app, {
    method: 'GET',
    url: `${base}/:number/diff`,
    operationId: `diff${o.names.one}Revision`,
    summary: `What a revision of a ${o.label} changed`,
    description:
      'The changes from revision `{number}` to `to` (a number or `current`), or without `to` from the revision before `{number}` to it; array entries are named by their natural keys (a block by id, a language entry by locale, a metadata entry by key).',
    tag: o.tag,
    access: { permission: o.read },
    params: revisionParams,
    querystring: diffQuery,
    response: { 200: dataOf(diffSchema) },
    handler: async (ctx, { params, query }, reply) => one(await store(reply).diff(ctx, source, params.id, params.number, query.to)),
  });
  route(app, {
    method: 'POST',
    url: `${base}/:number/restore`,
    operationId: `restore${o.names.one}Revision`,
    summary: `Revert a ${o.label} to a revision`,
    description: `Makes the revision current again, exactly (parts deleted since come back, parts it did not have are deleted), as a new revision \`reverted\`; answers the ${o.label} as the revision's \`record\` shows it. A delete's revision is 409 \`revision_not_revertible\`.`,
    tag: o.tag,
    access: { permission: o.write },
    record: { kind: source.kind, action: 'updated', revises: { source, action: 'reverted' } },
    params: revisionParams,
    response: { 200: dataOf(o.source.schema) },
    errors: [409],
    handler: async (ctx, { params }, reply) => one((await store(reply).revert(ctx, source, params.id, params.number)) as z.input<typeof o.source.schema>),
  });
}
