import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createdOrFound, one, pagingMeta } from '../../../shared/envelopes.js';
import type { Executor } from '../../../db/client.js';
import { type AssocLoader, type ReaderView, localeQuery, localesMeta, localesOf, readerList, readerListOf, readerView } from '../../../shared/http/reader.js';
import { route } from '../../../shared/http/route.js';
import { recordReaderRoutes } from '../../../shared/record/index.js';
import { dataOf, idParams, noContent, pagingMeta as pagingMetaSchema, pagingQuery } from '../../../shared/schemas.js';
import type { DeclaredKind } from './profiles.record.js';
import { type ProfileMappers, titleIn, toBlockEntry, toOccurrence } from './profiles.mappers.js';
import type { ProfileSummary } from './profiles.repository.js';
import {
  blockParams,
  datesQuery,
  occurrenceSchema,
  participantSchema,
  readerBlockSchema,
  readerProfilesQuery,
  readerProfilesSearchQuery,
  registrationBody,
  registrationSchema,
} from './profiles.schemas.js';
import type { ProfilesService } from './profiles.service.js';

export interface ProfilesReaderOptions {
  profiles: ProfilesService;
  mappers: ProfileMappers;
  kinds: DeclaredKind[];
  /** Assocs: categories (spec 2.4, core's) and profile types (spec 2.5) among ids, one statement per kind and page. */
  categories: AssocLoader;
  profileTypes: (executor: Executor, mediaId: string, ids: string[], view: ReaderView, available: string[]) => Promise<unknown[]>;
  categorySchema: z.ZodType;
  profileTypeSchema: z.ZodType;
}

const toRegistration = (r: { id: string; eventId: string; listed: boolean; displayName: string | null; insertedAt: Date }) => ({
  id: r.id,
  event_id: r.eventId,
  listed: r.listed,
  display_name: r.displayName,
  inserted_at: r.insertedAt.toISOString(),
});

/** /api/media/v1/community/{kind}: published profiles, one language at a time; one declaration looped over the kinds. */
export const profilesReaderRoutes: FastifyPluginAsyncZod<ProfilesReaderOptions> = async (app, options) => {
  const { profiles, mappers, kinds } = options;
  // Profile types carry the media's languages in meta.locales: the loaders are the request's.
  const assocsOf = (req: FastifyRequest) => ({
    categories: options.categories,
    profile_types: ((executor, mediaId, ids, view) => options.profileTypes(executor, mediaId, ids, view, req.media.locales)) as AssocLoader,
  });
  const assocSchemas = { categories: options.categorySchema, profile_types: options.profileTypeSchema };

  for (const { kind, record: d, service } of kinds) {
    const { one: One, many: Many } = d.names;
    const tag = d.tags.reader!;
    const path = d.reader.path;
    const listSchema = readerListOf(d.schemas.readerItem, assocSchemas);
    const toItem = mappers.toReaderItem(d);

    route(app, {
      method: 'GET',
      url: path,
      operationId: `readerList${Many}`,
      serves: d.kind,
      summary: `${Many} paginated`,
      description: `Published ${kind}, newest first, in the asked language; \`category_ids[]\` and \`profile_type_ids[]\` keep those with one of the given ones.`,
      tag,
      access: { scope: 'media:read' },
      querystring: readerProfilesQuery,
      response: { 200: listSchema },
      handler: async (ctx, { query }, reply) => readerList(reply.request, await profiles.listPublished(ctx, kind, query), query.locale, toItem, assocsOf(reply.request)),
    });

    route(app, {
      method: 'GET',
      url: `${path}/search`,
      operationId: `readerSearch${Many}`,
      serves: d.kind,
      summary: `Search ${kind}`,
      description:
        "Published records matching `q`: full text on names, summary and metadata values in each of the media's languages, and trigram similarity on names (a typo still finds them), most relevant first; `category_ids[]` and `profile_type_ids[]` filter (any of). Without `q`, the filters alone, newest first. Pages by cursor.",
      tag,
      access: { scope: 'media:read' },
      querystring: readerProfilesSearchQuery,
      response: { 200: listSchema },
      handler: async (ctx, { query }, reply) =>
        readerList(reply.request, await profiles.search(ctx, kind, query, reply.request.media.locales), query.locale, toItem, assocsOf(reply.request)),
    });

    recordReaderRoutes(app, d, service);

    route(app, {
      method: 'GET',
      url: `${path}/:id/blocks/:block_id`,
      operationId: `readerGet${One}Block`,
      serves: 'block',
      summary: `${One} block by id`,
      description: 'A block of a published record: its title in the asked language and its entries.',
      tag,
      access: { scope: 'media:read' },
      params: blockParams,
      querystring: localeQuery,
      response: { 200: dataOf(readerBlockSchema) },
      handler: async (ctx, { params, query }, reply) => {
        const block = await profiles.publishedBlock(ctx, kind, params.id, params.block_id);
        const lang = query.locale ?? reply.request.media.defaultLocale;
        return one({ id: block.id, key: block.key, position: block.position, title: titleIn(block.locales, lang), entries: block.entries.map(toBlockEntry) });
      },
    });
  }

  const events = kinds.find((k) => k.kind === 'events')!.record;
  const tag = events.tags.reader!;
  const toEvent = mappers.toReaderItem(events);

  route(app, {
    method: 'GET',
    url: '/community/events/dates',
    operationId: 'readerEventDates',
    serves: 'event',
    summary: 'Event dates by range',
    description: 'The occurrences of published events within `from`..`to` (at most a year), by start, with the events in `assocs.events`.',
    tag,
    access: { scope: 'media:read' },
    querystring: datesQuery,
    response: {
      200: z.object({ data: z.array(occurrenceSchema), assocs: z.object({ events: z.array(events.schemas.readerItem) }), meta: z.object({ locales: localesMeta }) }),
    },
    handler: async (ctx, { query }, reply) => {
      const occurrences = await profiles.dates(ctx, query.from, query.to);
      const ids = [...new Set(occurrences.map((o) => o.eventId))];
      const view = { ...readerView(reply.request, query.locale), collect: {} } as ReaderView<'categories' | 'profile_types'>;
      const rows: ProfileSummary[] = ids.length ? await profiles.summaries(ctx, ids) : [];
      const media = reply.request.media;
      return {
        data: occurrences.map(toOccurrence),
        assocs: { events: rows.map((r) => toEvent(r, view)) },
        meta: { locales: localesOf(media.locales, query.locale, view.fallback) },
      };
    },
  });

  route(app, {
    method: 'POST',
    url: '/community/events/:id/registration',
    operationId: 'readerRegisterEvent',
    summary: 'Register to an event',
    description:
      'Registers the signed-in reader: 201 the first time, 200 with the existing registration after. 409 `registration_closed` when the event does not take registrations, 409 `event_full` at capacity (never exceeded, whatever the concurrency).',
    tag,
    access: { scope: 'account:write', readerRequired: true },
    params: idParams,
    body: registrationBody,
    response: { 200: dataOf(registrationSchema), 201: dataOf(registrationSchema) },
    errors: [409],
    handler: async (ctx, { params, body }, reply) => createdOrFound(reply, await profiles.register(ctx, params.id, body), toRegistration),
  });

  route(app, {
    method: 'DELETE',
    url: '/community/events/:id/registration',
    operationId: 'readerUnregisterEvent',
    summary: 'Unregister from an event',
    description: "Removes the signed-in reader's registration, if any (204 either way).",
    tag,
    access: { scope: 'account:write', readerRequired: true },
    params: idParams,
    response: { 204: noContent },
    handler: async (ctx, { params }, reply) => {
      await profiles.unregister(ctx, params.id);
      reply.status(204);
    },
  });

  route(app, {
    method: 'GET',
    url: '/community/events/:id/participants',
    operationId: 'readerListEventParticipants',
    serves: 'participant',
    summary: 'Event participants paginated',
    description: 'Those who registered with `listed: true`, by display name; `meta.total` counts every registration. No e-mail or reader id appears.',
    tag,
    access: { scope: 'media:read' },
    params: idParams,
    querystring: pagingQuery,
    response: { 200: z.object({ data: z.array(participantSchema), meta: pagingMetaSchema.extend({ total: z.int() }) }) },
    handler: async (ctx, { params, query }, reply) => {
      const { page, total } = await profiles.participants(ctx, params.id, query);
      return { data: page.items.map((p) => ({ id: p.id, display_name: p.displayName })), meta: { ...pagingMeta(reply.request, page), total } };
    },
  });
};
