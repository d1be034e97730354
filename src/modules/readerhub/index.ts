import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { contextOf } from '../../shared/http/route.js';
import type { Paginator } from '../../shared/paging.js';
import type { TopicsService } from '../publisher/index.js';
import { createAccessService } from './access/access.service.js';
import { accountsBackofficeRoutes } from './accounts/accounts.backoffice.routes.js';
import { accountsReaderRoutes, verifyReaderRoutes } from './accounts/accounts.reader.routes.js';
import { createAccountsRepository } from './accounts/accounts.repository.js';
import { type ImageCheck, createAccountsService } from './accounts/accounts.service.js';
import type { ReaderRow } from './accounts/accounts.table.js';
import { devicesReaderRoutes } from './devices/devices.reader.routes.js';
import { devicesRepository } from './devices/devices.repository.js';
import { createDevicesService } from './devices/devices.service.js';
import { entitlementsBackofficeRoutes } from './entitlements/entitlements.backoffice.routes.js';
import { entitlementsReaderRoutes } from './entitlements/entitlements.reader.routes.js';
import { createEntitlementsRepository } from './entitlements/entitlements.repository.js';
import { createEntitlementsService } from './entitlements/entitlements.service.js';
import { favoritesReaderRoutes } from './favorites/favorites.reader.routes.js';
import { createFavoritesRepository } from './favorites/favorites.repository.js';
import { type FavoriteRecords, createFavoritesService } from './favorites/favorites.service.js';
import { invitationsBackofficeRoutes } from './invitations/invitations.backoffice.routes.js';
import { invitationsReaderRoutes } from './invitations/invitations.reader.routes.js';
import { createInvitationsRepository } from './invitations/invitations.repository.js';
import { createInvitationsService } from './invitations/invitations.service.js';
import { topicSubscriptionsReaderRoutes } from './topic-subscriptions/topic-subscriptions.reader.routes.js';
import { createTopicSubscriptionsRepository } from './topic-subscriptions/topic-subscriptions.repository.js';
import { createTopicSubscriptionsService } from './topic-subscriptions/topic-subscriptions.service.js';
import { routeOf } from '../../shared/http/route-options.js';

export type { ReaderRow } from './accounts/accounts.table.js';
export type { AccessService, GatedContent, Reader } from './access/access.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The signed-in reader's account, linked or created before the handler of a route whose
     * access says `readerRequired`; a handler reaches it as `reply.request.readerAccount`.
     */
    readerAccount: ReaderRow;
  }
}

export function createReaderhubServices(deps: {
  pager: Paginator;
  topics: TopicsService;
  /** Checks that a favorite's record exists for the reader, per kind (contents: docs). */
  favoriteRecords: FavoriteRecords;
  /** Checks a profile image's file_key against the media's live asset images (core assets). */
  imageExists?: ImageCheck;
}) {
  const { pager, topics } = deps;
  const accounts = createAccountsService({ repo: createAccountsRepository(pager), imageExists: deps.imageExists });
  return {
    accounts,
    entitlements: createEntitlementsService({ repo: createEntitlementsRepository(pager), accounts }),
    invitations: createInvitationsService({ repo: createInvitationsRepository(pager) }),
    devices: createDevicesService({ repo: devicesRepository }),
    favorites: createFavoritesService({ repo: createFavoritesRepository(pager), records: deps.favoriteRecords }),
    topicSubscriptions: createTopicSubscriptionsService({ repo: createTopicSubscriptionsRepository(pager), topics }),
    /** Reader access: who reads, their entitlements, the meter (the decision is shared/access.ts). */
    access: createAccessService({ accounts }),
  };
}

export type ReaderhubServices = ReturnType<typeof createReaderhubServices>;

/** ReaderHub's Backoffice, under /core/v2 with the readerhub:* permissions. */
export const readerhubBackofficeRoutes: FastifyPluginAsyncZod<{ readerhub: ReaderhubServices }> = async (app, { readerhub }) => {
  await app.register(accountsBackofficeRoutes, { accounts: readerhub.accounts });
  await app.register(entitlementsBackofficeRoutes, { entitlements: readerhub.entitlements });
  await app.register(invitationsBackofficeRoutes, { invitations: readerhub.invitations });
};

/** Routes about the reader's own data: the account is linked (or created) on first use. */
const signedInReaderRoutes: FastifyPluginAsyncZod<{ readerhub: ReaderhubServices }> = async (app, { readerhub }) => {
  app.decorateRequest('readerAccount', null as never);
  // preHandler: after the body is validated, so that a refused request creates no account.
  app.addHook('preHandler', async (req) => {
    if (routeOf(req).config.readerRequired) req.readerAccount = await readerhub.accounts.ensure(contextOf(req, 'primary'));
  });

  await app.register(accountsReaderRoutes, { accounts: readerhub.accounts });
  await app.register(entitlementsReaderRoutes, { entitlements: readerhub.entitlements });
  await app.register(devicesReaderRoutes, { devices: readerhub.devices });
  await app.register(favoritesReaderRoutes, { favorites: readerhub.favorites });
  await app.register(topicSubscriptionsReaderRoutes, { subscriptions: readerhub.topicSubscriptions });
};

/** ReaderHub's Reader routes under /api/media/v1: the signed-in reader and what belongs to them. */
export const readerhubReaderRoutes: FastifyPluginAsyncZod<{ readerhub: ReaderhubServices }> = async (app, { readerhub }) => {
  await app.register(verifyReaderRoutes, { accounts: readerhub.accounts });
  await app.register(invitationsReaderRoutes, { invitations: readerhub.invitations });
  await app.register(signedInReaderRoutes, { readerhub });
};
