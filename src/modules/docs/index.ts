import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db, Executor } from '../../db/client.js';
import type { ReaderView } from '../../shared/http/reader.js';
import type { RequestContext } from '../../shared/context.js';
import type { Paginator } from '../../shared/paging.js';
import { missingIds, recordBackofficeRoutes } from '../../shared/record/index.js';
import { type CoreServices, imageUrls, readerCategorySchema } from '../core/index.js';
import { contentTypeRecord, createContentTypesService } from './content-types/content-types.record.js';
import { contentsBackofficeRoutes } from './contents/contents.backoffice.routes.js';
import { contentMappers } from './contents/contents.mappers.js';
import { contentsPublicRoutes } from './contents/contents.public.routes.js';
import { contentsReaderRoutes, readerContentsListing } from './contents/contents.reader.routes.js';
import { createContentsRepository } from './contents/contents.repository.js';
import { createContentsService } from './contents/contents.service.js';
import { templatesBackofficeRoutes } from './templates/templates.backoffice.routes.js';
import { templatesPublicRoutes } from './templates/templates.public.routes.js';
import { createTemplatesRepository } from './templates/templates.repository.js';
import { createTemplatesService } from './templates/templates.service.js';

export type { ContentsService } from './contents/contents.service.js';
// What other areas read of contents (publisher's references, RSS feeds and sitemaps), without their tables.
export { feedContents, liveContentIds, liveTemplateIds, publishedContentIds, publishedContentLinks } from './contents/contents.public.js';
export type { FeedContent } from './contents/contents.public.js';
export type { ContentListing, ContentRecord, ContentsWithin } from './contents/contents.repository.js';
export type { ContentMappers } from './contents/contents.mappers.js';
export { readerContentSchema, readerContentsQuery, readerSearchQuery, readerTemplateSchema } from './contents/contents.schemas.js';
export type { ReaderContentsQuery, ReaderSearchQuery } from './contents/contents.schemas.js';
export { readerCategorySchema };

export function createDocsServices(deps: {
  db: Db;
  pager: Paginator;
  core: Pick<CoreServices, 'tenancy' | 'categories'>;
  /** PUBLIC_BASE_URL: the origin of image urls. */
  publicBaseUrl?: string | undefined;
  /** Content authors must be people of the media: community's check, injected by the container. */
  missingPeople?: (executor: Executor, mediaId: string, ids: string[]) => Promise<string[]>;
  /** A `profiles` block names live profiles of the media: community's check, injected by the container. */
  missingProfiles?: (executor: Executor, mediaId: string, ids: string[]) => Promise<string[]>;
  /** Readers see only published profiles among a content's authors and `profiles` blocks: community's lookup. */
  publishedProfileIds?: (executor: Executor, mediaId: string, ids: string[]) => Promise<Set<string>>;
}) {
  const { db, pager, core } = deps;
  const contentTypes = createContentTypesService({ db, pager, assertLocales: core.tenancy.assertLocales, live: {} });
  const templates = createTemplatesService({ db, repo: createTemplatesRepository(pager), contentTypes });
  const contents = createContentsService({
    db,
    repo: createContentsRepository(pager),
    templates,
    core: { assertLocales: core.tenancy.assertLocales, missingCategories: (executor, mediaId, ids) => missingIds(core.categories.live, executor, mediaId, ids), ...(deps.missingPeople && { missingPeople: deps.missingPeople }),
      ...(deps.missingProfiles && { missingProfiles: deps.missingProfiles }),
      ...(deps.publishedProfileIds && { publishedProfileIds: deps.publishedProfileIds }),
    },
  });
  /** Categories in the Reader's assocs, as core serves them. */
  const categorySummaries = (executor: Executor, mediaId: string, ids: string[], view: ReaderView) => core.categories.summaries(executor, mediaId, ids, view);
  const mappers = contentMappers(imageUrls(deps.publicBaseUrl));
  return {
    contentTypes,
    templates,
    contents,
    /**
     * A published content in one language (the asked one, else the media's default, else any)
     * with that language's blocks, as the Reader serves it: what a newsletter sends. 404
     * content_not_found when it is not published.
     */
    publishedContent: async (ctx: RequestContext, id: string, locale: string | undefined, fallback: string) =>
      mappers.toReaderContentWithBlocks(await contents.getPublished(ctx, id), { locale, fallback }),
    categorySummaries,
    mappers,
    /** The Reader's contents list (schema, item mapping, assocs), for other modules' lists of contents. */
    readerContents: readerContentsListing({
      mappers,
      assocs: { categories: categorySummaries, templates: templates.summaries },
      categorySchema: readerCategorySchema,
    }),
  };
}

export type DocsServices = ReturnType<typeof createDocsServices>;

/** Every /docs/v2 Backoffice route. */
export const docsBackofficeRoutes: FastifyPluginAsyncZod<{ docs: DocsServices }> = async (app, { docs }) => {
  recordBackofficeRoutes(app, contentTypeRecord, docs.contentTypes);
  await app.register(templatesBackofficeRoutes, { templates: docs.templates });
  await app.register(contentsBackofficeRoutes, { contents: docs.contents, mappers: docs.mappers });
};

/** Docs' Reader routes under /api/media/v1. */
export const docsReaderRoutes: FastifyPluginAsyncZod<{ docs: DocsServices }> = async (app, { docs }) => {
  await app.register(contentsReaderRoutes, {
    contents: docs.contents,
    mappers: docs.mappers,
    assocs: { categories: docs.categorySummaries, templates: docs.templates.summaries },
    categorySchema: readerCategorySchema,
  });
};

/** Docs' deprecated Public routes under /api/public/docs/v2. */
export const docsPublicRoutes: FastifyPluginAsyncZod<{ docs: DocsServices }> = async (app, { docs }) => {
  await app.register(contentsPublicRoutes, { contents: docs.contents });
  await app.register(templatesPublicRoutes, { templates: docs.templates });
};
