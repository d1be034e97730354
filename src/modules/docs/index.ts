import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.js';
import type { ReaderView } from '../../shared/http/reader.js';
import type { Paginator } from '../../shared/paging.js';
import type { CoreServices } from '../core/index.js';
// Core's index does not export the category summary's schema yet; the Reader assocs need it.
import { readerCategorySchema } from '../core/categories/categories.schemas.js';
import { contentTypesBackofficeRoutes } from './content-types/content-types.backoffice.routes.js';
import { createContentTypesRepository } from './content-types/content-types.repository.js';
import { createContentTypesService } from './content-types/content-types.service.js';
import { imageUrls } from './contents/contents.assets.js';
import { contentsBackofficeRoutes } from './contents/contents.backoffice.routes.js';
import { contentMappers } from './contents/contents.mappers.js';
import { contentsReaderRoutes } from './contents/contents.reader.routes.js';
import { createContentsRepository } from './contents/contents.repository.js';
import { createContentsService } from './contents/contents.service.js';
import { templatesBackofficeRoutes } from './templates/templates.backoffice.routes.js';
import { createTemplatesRepository } from './templates/templates.repository.js';
import { createTemplatesService } from './templates/templates.service.js';

export type { ContentsService } from './contents/contents.service.js';

export function createDocsServices(deps: {
  db: Db;
  pager: Paginator;
  core: Pick<CoreServices, 'tenancy' | 'categories'>;
  /** PUBLIC_BASE_URL: the origin of image urls. */
  publicBaseUrl?: string | undefined;
}) {
  const { db, pager, core } = deps;
  const contentTypes = createContentTypesService({ db, repo: createContentTypesRepository(pager) });
  const templates = createTemplatesService({ db, repo: createTemplatesRepository(pager), contentTypes });
  const contents = createContentsService({
    db,
    repo: createContentsRepository(pager),
    templates,
    core: { assertLocales: core.tenancy.assertLocales, missingCategories: core.categories.missing },
  });
  return {
    contentTypes,
    templates,
    contents,
    /** Categories in the Reader's assocs, as core serves them. */
    categorySummaries: (mediaId: string, ids: string[], view: ReaderView) => core.categories.summaries(mediaId, ids, view),
    mappers: contentMappers(imageUrls(deps.publicBaseUrl)),
  };
}

export type DocsServices = ReturnType<typeof createDocsServices>;

/** Every /docs/v2 Backoffice route. */
export const docsBackofficeRoutes: FastifyPluginAsyncZod<{ docs: DocsServices }> = async (app, { docs }) => {
  await app.register(contentTypesBackofficeRoutes, { contentTypes: docs.contentTypes });
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
