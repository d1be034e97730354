import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db, Executor } from '../../db/client.js';
import type { ReaderView } from '../../shared/http/reader.js';
import type { Paginator } from '../../shared/paging.js';
import { type RecordDeps, declaredService, missingIds } from '../../shared/record/index.js';
import { type CoreServices, imageUrls, missingAssetImages, readerCategorySchema } from '../core/index.js';
import { createProfileTypesRepository } from './profile-types/profile-types.repository.js';
import { profileTypesBackofficeRoutes } from './profile-types/profile-types.backoffice.routes.js';
import { profileTypesReaderRoutes } from './profile-types/profile-types.reader.routes.js';
import { readerProfileTypeSchema } from './profile-types/profile-types.schemas.js';
import { createProfileTypesService } from './profile-types/profile-types.service.js';
import { profilesBackofficeRoutes } from './profiles/profiles.backoffice.routes.js';
import { profilesPublicRoutes } from './profiles/profiles.public.routes.js';
import type { ProfileKind } from './profiles/profiles.kinds.js';
import { profileMappers } from './profiles/profiles.mappers.js';
import type { DeclaredKind, ProfileDeclaration } from './profiles/profiles.record.js';
import { profilesReaderRoutes } from './profiles/profiles.reader.routes.js';
import { createProfilesRepository } from './profiles/profiles.repository.js';
import { type ProfilesDeps, createProfilesService } from './profiles/profiles.service.js';
// The kinds last: the OpenAPI document names schemas in the order modules load them, and the
// kinds' own (made when a route first declares them) come after those of profile types and profiles.
import { eventRecord } from './events/events.record.js';
import { organizationRecord } from './organizations/organizations.record.js';
import { personRecord } from './people/people.record.js';
import { projectRecord } from './projects/projects.record.js';

export type { ProfileKind } from './profiles/profiles.kinds.js';
export { liveProfileIds, publishedProfileIds, publishedProfileLinks } from './profiles/profiles.lookup.js';

/** The four kinds of profile, each a declared record. */
const RECORDS: Record<ProfileKind, ProfileDeclaration> = {
  events: eventRecord,
  organizations: organizationRecord,
  people: personRecord,
  projects: projectRecord,
};

export function createCommunityServices(deps: {
  db: Db;
  pager: Paginator;
  /** Core's languages, categories and asset images. */
  core: Pick<CoreServices, 'tenancy' | 'categories' | 'assets'>;
  /**
   * Docs' lookups of contents (docs' index exports them; a block's entries and a description's
   * blocks name contents). Given by the container: importing docs here would load docs' schemas
   * before community's and reorder the OpenAPI document's components.
   */
  docs: Pick<ProfilesDeps, 'liveContentIds' | 'publishedContentIds'>;
  /** PUBLIC_BASE_URL: the origin of image urls. */
  publicBaseUrl?: string | undefined;
}) {
  const { core } = deps;
  const profileTypesRepo = createProfileTypesRepository(deps.pager);
  const mappers = profileMappers(imageUrls(deps.publicBaseUrl));
  // Each kind's declaration with its wire mappers, which need the image urls, and its declared service.
  const recordDeps: RecordDeps = { db: deps.db, pager: deps.pager, assertLocales: core.tenancy.assertLocales, live: {} };
  const kinds: DeclaredKind[] = (Object.keys(RECORDS) as ProfileKind[]).map((kind) => {
    const declared = RECORDS[kind];
    const record = {
      ...declared,
      toWire: mappers.toBackoffice(declared),
      reader: { ...declared.reader, toReader: mappers.toReaderRecord(declared) },
    } as ProfileDeclaration;
    return { kind, record, service: declaredService(recordDeps, record) };
  });
  // What profiles name of other modules, through their index: core's languages, categories and images, docs' contents.
  const others: ProfilesDeps = {
    assertLocales: core.tenancy.assertLocales,
    missingCategories: (executor: Executor, mediaId: string, ids: string[]) => missingIds(core.categories.live, executor, mediaId, ids),
    missingAssetImages,
    imageByKey: core.assets.imageByKey,
    ...deps.docs,
  };
  return {
    profileTypes: createProfileTypesService({ repo: profileTypesRepo }),
    profiles: createProfilesService({
      db: deps.db,
      repo: createProfilesRepository(deps.pager),
      profileTypes: profileTypesRepo,
      records: RECORDS,
      core: others,
    }),
    kinds,
    /** The media of a published organization (an organization's Public lists are under its id), else its 404. */
    organizationMedia: (id: string) => kinds.find((k) => k.kind === 'organizations')!.service.mediaOf(id, 'published'),
    mappers,
    /** Category summaries (spec 2.4) for the Reader's assocs, as core serves them. */
    categorySummaries: (executor: Executor, mediaId: string, ids: string[], view: ReaderView) => core.categories.summaries(executor, mediaId, ids, view),
  };
}

export type CommunityServices = ReturnType<typeof createCommunityServices>;

/** Every /community/v2 Backoffice route. */
export const communityBackofficeRoutes: FastifyPluginAsyncZod<{ community: CommunityServices }> = async (app, { community }) => {
  await app.register(profileTypesBackofficeRoutes, { profileTypes: community.profileTypes });
  await app.register(profilesBackofficeRoutes, { profiles: community.profiles, kinds: community.kinds });
};

/** Community's Reader routes under /api/media/v1. */
export const communityReaderRoutes: FastifyPluginAsyncZod<{ community: CommunityServices }> = async (app, { community }) => {
  await app.register(profileTypesReaderRoutes, { profileTypes: community.profileTypes });
  await app.register(profilesReaderRoutes, {
    profiles: community.profiles,
    mappers: community.mappers,
    kinds: community.kinds,
    categories: community.categorySummaries,
    profileTypes: community.profileTypes.summaries,
    categorySchema: readerCategorySchema,
    profileTypeSchema: readerProfileTypeSchema,
  });
};

/** Community's deprecated Public routes under /api/public/community/v2: profile types and the published profiles of each kind. */
export const communityPublicRoutes: FastifyPluginAsyncZod<{ community: CommunityServices }> = async (app, { community }) => {
  await app.register(profilesPublicRoutes, { kinds: community.kinds });
};
