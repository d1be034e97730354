import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { one } from '../../../shared/envelopes.js';
import { localeQuery, readerListQuery, readerView } from '../../../shared/http/reader.js';
import { route } from '../../../shared/http/route.js';
import { dataOf, idParams, uuid } from '../../../shared/schemas.js';
import type { DocsServices } from '../../docs/index.js';
import { readerContentSchema, readerSearchQuery } from '../../docs/index.js';
import { magazinesTags } from '../magazines.tags.js';
import type { IssueMappers } from './issues.mappers.js';
import { issueSectionParams, readerIssueSchema, readerSectionSchema } from './issues.schemas.js';
import type { IssuesService } from './issues.service.js';

const tag = magazinesTags.readerIssues;
const access = { scope: 'media:read' } as const;

export interface IssuesReaderOptions {
  issues: IssuesService;
  mappers: IssueMappers;
  /** Docs' Reader contents list: its schema, item mapping and assocs. */
  docs: Pick<DocsServices, 'readerContents'>;
}

const readerSlotSchema = z
  .object({
    id: uuid,
    position: z.int(),
    content: readerContentSchema.nullable().describe('null when the content is not published (or deleted)'),
  })
  .meta({ id: 'ReaderBlockSlot' });

const readerSectionBlockSchema = z
  .object({ id: uuid, kind: z.string(), position: z.int(), settings: z.record(z.string(), z.unknown()), slots: z.array(readerSlotSchema) })
  .meta({ id: 'ReaderSectionBlock' });

/** /api/media/v1: issues, their sections and section blocks, and the published contents of sections. */
export const issuesReaderRoutes: FastifyPluginAsyncZod<IssuesReaderOptions> = async (app, { issues, mappers, docs }) => {
  const listing = docs.readerContents;

  route(app, {
    method: 'GET',
    url: '/issues/:id',
    operationId: 'readerGetIssue',
    serves: 'issue',
    summary: 'Issue by id',
    description: 'An issue in the asked language, with its sections in order.',
    tag,
    access,
    params: idParams,
    querystring: localeQuery,
    response: { 200: dataOf(readerIssueSchema) },
    handler: async (ctx, { params, query }, reply) => {
      const { issue, sections } = await issues.readerIssue(ctx, params.id);
      return one(mappers.toReaderIssue(issue, sections, readerView(reply.request, query.locale)));
    },
  });

  route(app, {
    method: 'GET',
    url: '/issues/:id/sections/:section_id/contents',
    operationId: 'readerIssueSectionContents',
    serves: 'content',
    summary: 'Contents in an issue section',
    description: "The section's published contents in position order, as the contents list serves them (with `assocs`).",
    tag,
    access,
    params: issueSectionParams,
    querystring: readerListQuery,
    response: { 200: listing.schema },
    handler: async (ctx, { params, query }, reply) =>
      listing.answer(reply.request, await issues.publishedSectionContents(ctx, params.section_id, query, params.id), query.locale),
  });

  route(app, {
    method: 'GET',
    url: '/issues/:id/contents/search',
    operationId: 'readerSearchIssueContents',
    serves: 'content',
    summary: 'Search contents in an issue',
    description: "Published contents of the issue's sections matching `q` (the contents search narrowed to the issue), most relevant first.",
    tag,
    access,
    params: idParams,
    querystring: readerSearchQuery,
    response: { 200: listing.schema },
    handler: async (ctx, { params, query }, reply) =>
      listing.answer(reply.request, await issues.searchIssue(ctx, params.id, query, reply.request.media.locales), query.locale),
  });

  route(app, {
    method: 'GET',
    url: '/issues/:id/sections/:section_id/blocks',
    operationId: 'readerIssueSectionBlocks',
    serves: 'block',
    summary: 'Section blocks',
    description:
      "The section's blocks in order with their slots; a slot whose content is not published is served with `content: null`. `assocs` holds the categories and templates the slots' contents name, as in the contents list.",
    tag,
    access,
    params: issueSectionParams,
    querystring: localeQuery,
    response: { 200: z.object({ data: z.array(readerSectionBlockSchema), assocs: listing.schema.shape.assocs }) },
    handler: async (ctx, { params, query }, reply) => {
      const { blocks, contents } = await issues.publishedLayout(ctx, params.id, params.section_id);
      // The slots' contents as the contents list maps them, with their assocs loaded once per kind.
      const { data, assocs } = await listing.answer(reply.request, { items: [...contents.values()], next: null, previous: null }, query.locale);
      const served = new Map(data.map((c) => [c.id, c]));
      return {
        data: blocks.map((b) => ({
          id: b.id,
          kind: b.kind,
          position: b.position,
          settings: b.settings as Record<string, unknown>,
          slots: b.slots.map((s) => ({ id: s.id, position: s.position, content: served.get(s.contentId) ?? null })),
        })),
        assocs,
      };
    },
  });

  route(app, {
    method: 'GET',
    url: '/sections/:id',
    operationId: 'readerGetSection',
    serves: 'section',
    summary: 'Section by id',
    tag,
    access,
    params: idParams,
    querystring: localeQuery,
    response: { 200: dataOf(readerSectionSchema) },
    handler: async (ctx, { params, query }, reply) =>
      one(mappers.toReaderSection(await issues.readerSection(ctx, params.id), readerView(reply.request, query.locale))),
  });

  route(app, {
    method: 'GET',
    url: '/sections/:id/contents',
    operationId: 'readerSectionContents',
    serves: 'content',
    summary: 'Contents by section id',
    description: "The section's published contents in position order, as the contents list serves them (with `assocs`).",
    tag,
    access,
    params: idParams,
    querystring: readerListQuery,
    response: { 200: listing.schema },
    handler: async (ctx, { params, query }, reply) =>
      listing.answer(reply.request, await issues.publishedSectionContents(ctx, params.id, query), query.locale),
  });
};
