import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Page } from '../../../shared/paging.js';
import { one } from '../../../shared/envelopes.js';
import {
  type AssocLoader,
  type ReaderView,
  localeQuery,
  readerList,
  readerListOf,
  readerOne,
  readerOneOf,
  readerView,
} from '../../../shared/http/reader.js';
import { route } from '../../../shared/http/route.js';
import { dataOf, idParams } from '../../../shared/schemas.js';
import { docsErrors } from '../docs.errors.js';
import { docsTags } from '../docs.tags.js';
import type { ContentGate } from './contents.access.js';
import type { ContentMappers } from './contents.mappers.js';
import type { ContentRecord } from './contents.repository.js';
import {
  questionParams,
  questionResultsSchema,
  readerContentSchema,
  readerContentWithBlocksSchema,
  readerContentsQuery,
  readerSearchQuery,
  readerTemplateSchema,
  voteBody,
} from './contents.schemas.js';
import type { ContentsService } from './contents.service.js';

const tag = docsTags.readerContents;

export interface ContentsReaderOptions {
  contents: ContentsService;
  mappers: ContentMappers;
  /** Assocs: the categories (spec 2.4) and templates among ids, one statement per kind and page. */
  assocs: { categories: AssocLoader; templates: AssocLoader };
  /** The category summary's schema, owned by core. */
  categorySchema: Parameters<typeof readerListOf>[0];
  /** Who may read a content's body (contents.access.ts). */
  gate: ContentGate;
}

/**
 * A Reader list of contents, whoever pages them (docs' lists, a magazine section's): the list
 * schema, the item mapper collecting each item's categories and template, and the answer.
 */
export function readerContentsListing({ mappers, assocs, categorySchema }: Omit<ContentsReaderOptions, 'contents' | 'gate'>) {
  const schema = readerListOf(readerContentSchema, { categories: categorySchema, templates: readerTemplateSchema });
  // Each item names its categories and template; the page loads each kind once.
  const toItem = (row: ContentRecord, view: ReaderView<'categories' | 'templates'>) => {
    view.collect.categories(row.categories.map((c) => c.categoryId));
    view.collect.templates([row.templateId]);
    return mappers.toReaderContent(row, view);
  };
  return {
    schema,
    answer: (req: FastifyRequest, page: Page<ContentRecord>, locale: string | undefined) => readerList(req, page, locale, toItem, assocs),
  };
}

export type ReaderContentsListing = ReturnType<typeof readerContentsListing>;

/** /api/media/v1/contents: what readers may see now, one language at a time. */
export const contentsReaderRoutes: FastifyPluginAsyncZod<ContentsReaderOptions> = async (app, options) => {
  const { contents, mappers } = options;
  const listing = readerContentsListing(options);
  /** A question's results and votes are the content's body: 403 (the decision's reason) unless access is granted. */
  const admit = (reply: FastifyReply, preview = false) => async (content: Parameters<ContentGate>[2]) => {
    const access = await options.gate(reply.request, reply, content, preview);
    if (!access.granted) throw docsErrors.accessDenied(access.reason!);
  };
  const listSchema = listing.schema;

  route(app, {
    method: 'GET',
    url: '/contents',
    operationId: 'readerListContents',
    serves: 'content',
    summary: 'Contents paginated',
    description:
      'Published contents (a published status, published_at reached, not archived), newest publication first, in the asked language; `category_ids[]` and `template_ids[]` keep those with one of the given ones. `assocs` holds the categories and templates the page names.',
    tag,
    access: { scope: 'media:read' },
    querystring: readerContentsQuery,
    response: { 200: listSchema },
    handler: async (ctx, { query }, reply) =>
      listing.answer(reply.request, await contents.listPublished(ctx, query), query.locale),
  });

  route(app, {
    method: 'GET',
    url: '/contents/search',
    operationId: 'readerSearchContents',
    serves: 'content',
    summary: 'Contents search',
    description:
      "Published contents matching `q` in any of the media's languages (words stemmed per language, a typo in a title word tolerated), most relevant first: title matches above body matches. Pages by cursor over the relevance.",
    tag,
    access: { scope: 'media:read' },
    querystring: readerSearchQuery,
    response: { 200: listSchema },
    handler: async (ctx, { query }, reply) =>
      listing.answer(reply.request, await contents.search(ctx, query, reply.request.media.locales), query.locale),
  });

  route(app, {
    method: 'GET',
    url: '/contents/:id',
    operationId: 'readerGetContent',
    serves: 'content',
    summary: 'Content by id',
    description:
      "A published content in the asked language, with that language's blocks. With a preview link's token (`x-preview-token`), this content as it is now, whatever its status or `published_at`.",
    tag,
    access: { scope: 'media:read' },
    // A preview link of this content opens it here.
    config: { previewOf: 'id' },
    params: idParams,
    querystring: localeQuery,
    response: { 200: readerOneOf(readerContentWithBlocksSchema) },
    handler: async (ctx, { params, query }, reply) => {
      const row = await contents.getPublished(ctx, params.id);
      const access = await options.gate(reply.request, reply, row, Boolean(ctx.preview));
      return readerOne(reply.request, mappers.toReaderContentWithBlocks(row, readerView(reply.request, query.locale), access));
    },
  });

  route(app, {
    method: 'GET',
    url: '/contents/:id/questions/:block_id/results',
    operationId: 'readerQuestionResults',
    serves: 'question',
    primary: true,
    summary: 'Question results',
    description: 'Votes per choice of a question block of a published content, and their total.',
    tag,
    access: { scope: 'media:read' },
    config: { previewOf: 'id' },
    params: questionParams,
    response: { 200: readerOneOf(questionResultsSchema) },
    handler: async (ctx, { params }, reply) => readerOne(reply.request, await contents.results(ctx, params.id, params.block_id, admit(reply, Boolean(ctx.preview)))),
  });

  route(app, {
    method: 'POST',
    url: '/contents/:id/questions/:block_id/vote',
    operationId: 'readerVote',
    summary: 'Vote',
    description:
      "The signed-in reader's vote on a question: one per reader and question, voting again replaces the first. Answers the results. An application token is a 403.",
    tag,
    access: { scope: 'account:write', readerRequired: true },
    params: questionParams,
    body: voteBody,
    response: { 200: dataOf(questionResultsSchema) },
    handler: async (ctx, { params, body }, reply) => one(await contents.vote(ctx, params.id, params.block_id, body.choice_id, admit(reply))),
  });
};
