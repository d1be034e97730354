import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db, Executor } from '../../db/client.js';
import type { Paginator } from '../../shared/paging.js';
import { recordBackofficeRoutes } from '../../shared/record/index.js';
import { type CoreServices, imageUrls } from '../core/index.js';
import type { DocsServices } from '../docs/index.js';
import { createIssueTypesService, issueTypeRecord } from './issue-types/issue-types.record.js';
import { issuesBackofficeRoutes } from './issues/issues.backoffice.routes.js';
import { issueMappers } from './issues/issues.mappers.js';
import { issuesPublicRoutes } from './issues/issues.public.routes.js';
import { issuesReaderRoutes } from './issues/issues.reader.routes.js';
import { createIssuesRepository } from './issues/issues.repository.js';
import { createIssuesService } from './issues/issues.service.js';
import { issues } from './issues/issues.table.js';

/** Spec 2.16's shape of a Reader content (the bench's floor writes the same). */
export { toPublicSectionContent } from './issues/issues.public.routes.js';

/** Whether `issueId` is a live (not soft-deleted) magazine issue of the media. */
export async function issueExists(db: Executor, mediaId: string, issueId: string): Promise<boolean> {
  const rows = await db
    .select({ id: issues.id })
    .from(issues)
    .where(and(eq(issues.id, issueId), eq(issues.mediaId, mediaId), isNull(issues.deletedAt)))
    .limit(1);
  return rows.length > 0;
}

export function createMagazinesServices(deps: {
  db: Db;
  pager: Paginator;
  core: Pick<CoreServices, 'tenancy'>;
  docs: DocsServices;
  /** PUBLIC_BASE_URL: the origin of image urls. */
  publicBaseUrl?: string | undefined;
}) {
  const { db, pager, core, docs } = deps;
  const issueTypes = createIssueTypesService({ db, pager, assertLocales: core.tenancy.assertLocales, live: {} });
  const issuesService = createIssuesService({ db, repo: createIssuesRepository(pager), issueTypes, core, docs: docs.contents });
  return {
    issueTypes,
    issues: issuesService,
    mappers: issueMappers(imageUrls(deps.publicBaseUrl)),
    docs,
    tenancy: core.tenancy,
  };
}

export type MagazinesServices = ReturnType<typeof createMagazinesServices>;

/** Every /magazines/v2 Backoffice route. */
export const magazinesBackofficeRoutes: FastifyPluginAsyncZod<{ magazines: MagazinesServices }> = async (app, { magazines }) => {
  recordBackofficeRoutes(app, issueTypeRecord, magazines.issueTypes);
  await app.register(issuesBackofficeRoutes, { issues: magazines.issues, mappers: magazines.mappers });
};

/** Magazines' Reader routes under /api/media/v1. */
export const magazinesReaderRoutes: FastifyPluginAsyncZod<{ magazines: MagazinesServices }> = async (app, { magazines }) => {
  await app.register(issuesReaderRoutes, { issues: magazines.issues, mappers: magazines.mappers, docs: magazines.docs });
};

/** Magazines' deprecated Public routes under /api/public (the docs group, as spec 2.16's links say). */
export const magazinesPublicRoutes: FastifyPluginAsyncZod<{ magazines: MagazinesServices }> = async (app, { magazines }) => {
  await app.register(issuesPublicRoutes, { issues: magazines.issues, contentMappers: magazines.docs.mappers });
};
