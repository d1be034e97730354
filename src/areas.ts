import type { Config } from './config.js';
import type { Services } from './container.js';
import type { Db } from './db/client.js';
import { adOpsBackofficeRoutes, adOpsPublicRoutes, adOpsReaderRoutes } from './modules/ad-ops/index.js';
import { communityBackofficeRoutes, communityPublicRoutes, communityReaderRoutes } from './modules/community/index.js';
import { coreBackofficeRoutes, corePublicRoutes, coreReaderRoutes } from './modules/core/index.js';
import { docsBackofficeRoutes, docsPublicRoutes, docsReaderRoutes } from './modules/docs/index.js';
import { magazinesBackofficeRoutes, magazinesPublicRoutes, magazinesReaderRoutes } from './modules/magazines/index.js';
import { messengerBackofficeRoutes, messengerPublicRoutes, messengerReaderRoutes } from './modules/messenger/index.js';
import { oauthBackofficeRoutes, oauthReaderRoutes } from './modules/oauth/index.js';
import { publisherBackofficeRoutes, publisherPublicRoutes, publisherReaderRoutes } from './modules/publisher/index.js';
import { readerhubBackofficeRoutes, readerhubReaderRoutes } from './modules/readerhub/index.js';
import { type Area, type AreasByTree, type MountedArea, type Tree, inTreeOrder } from './shared/area.js';

/** What an area's routes are mounted with: the configuration and every module's services. */
export interface AreaContext {
  config: Config;
  services: Services;
}

export type AppArea = Area<AreaContext>;

/**
 * Every area of the service, in the order the Backoffice mounts them. Each names its routes in
 * each tree it has routes in, with their prefix and the services they take.
 */
export const AREAS: readonly AppArea[] = [
  {
    name: 'core',
    backoffice: (app, { services }) => app.register(coreBackofficeRoutes, { prefix: '/core/v2', core: services.core }),
    reader: (app, { services }) => app.register(coreReaderRoutes, { core: services.core }),
    public: (app, { services }) => app.register(corePublicRoutes, { core: services.core }),
  },
  {
    name: 'oauth',
    backoffice: (app, { services }) => app.register(oauthBackofficeRoutes, { prefix: '/core/v2/oauth', oauth: services.oauth }),
    reader: (app, { config, services }) =>
      app.register(oauthReaderRoutes, { prefix: '/oauth', oauth: { ...services.oauth, tokenRateLimit: config.rateLimit.token } }),
  },
  {
    name: 'publisher',
    backoffice: (app, { services }) => app.register(publisherBackofficeRoutes, { publisher: services.publisher }),
    reader: (app, { services }) => app.register(publisherReaderRoutes, { publisher: services.publisher }),
    public: (app, { services }) =>
      app.register(publisherPublicRoutes, {
        publisher: services.publisher,
        organizationMedia: services.community.organizationMedia,
      }),
  },
  {
    name: 'readerhub',
    backoffice: (app, { services }) => app.register(readerhubBackofficeRoutes, { prefix: '/core/v2', readerhub: services.readerhub }),
    reader: (app, { services }) => app.register(readerhubReaderRoutes, { readerhub: services.readerhub }),
  },
  {
    name: 'community',
    backoffice: (app, { services }) => app.register(communityBackofficeRoutes, { prefix: '/community/v2', community: services.community }),
    reader: (app, { services }) => app.register(communityReaderRoutes, { community: services.community }),
    public: (app, { services }) => app.register(communityPublicRoutes, { community: services.community }),
  },
  {
    name: 'docs',
    backoffice: (app, { services }) => app.register(docsBackofficeRoutes, { prefix: '/docs/v2', docs: services.docs }),
    reader: (app, { services }) => app.register(docsReaderRoutes, { docs: services.docs, access: services.readerhub.access }),
    public: (app, { services }) => app.register(docsPublicRoutes, { docs: services.docs }),
  },
  {
    name: 'magazines',
    backoffice: (app, { services }) => app.register(magazinesBackofficeRoutes, { prefix: '/magazines/v2', magazines: services.magazines }),
    reader: (app, { services }) => app.register(magazinesReaderRoutes, { magazines: services.magazines }),
    public: (app, { services }) => app.register(magazinesPublicRoutes, { magazines: services.magazines }),
  },
  {
    name: 'ad-ops',
    backoffice: (app, { services }) => app.register(adOpsBackofficeRoutes, { prefix: '/ad-ops/v2', adOps: services.adOps }),
    reader: (app, { services }) => app.register(adOpsReaderRoutes, { adOps: services.adOps }),
    public: (app, { services }) => app.register(adOpsPublicRoutes, { adOps: services.adOps }),
  },
  {
    name: 'messenger',
    backoffice: (app, { config, services }) =>
      app.register(messengerBackofficeRoutes, { prefix: '/messenger/v2', messenger: services.messenger, sunset: config.publicApiSunset }),
    reader: (app, { services }) => app.register(messengerReaderRoutes, { messenger: services.messenger }),
    public: (app, { services }) => app.register(messengerPublicRoutes, { messenger: services.messenger }),
  },
];

/**
 * Where a tree mounts areas before the list's order: the Reader's token endpoint comes first, and
 * the Public tree keeps the order its paths have had in the OpenAPI document since it was written.
 */
const LEAD: Partial<Record<Tree, readonly string[]>> = {
  reader: ['oauth'],
  public: ['core', 'docs', 'magazines', 'community'],
};

/**
 * The service's areas and a caller's extra ones (a test's fixture area) as each tree mounts them,
 * an extra area's own services made over the database and what the container shares.
 */
export function areasByTree(extra: readonly AppArea[], services: Services, db: Db): AreasByTree<AreaContext> {
  const recordDeps = { db, pager: services.pager, assertLocales: services.core.tenancy.assertLocales, live: {} };
  const mounted: Array<MountedArea<AreaContext>> = [...AREAS, ...extra].map((area) => ({ area, own: area.services?.(recordDeps) }));
  return {
    backoffice: inTreeOrder(mounted, LEAD.backoffice),
    reader: inTreeOrder(mounted, LEAD.reader),
    public: inTreeOrder(mounted, LEAD.public),
  };
}
