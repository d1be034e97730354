import type { Db } from '../../../db/client.js';
import { systemContext } from '../../../shared/context.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import type { ApiKeysService } from '../api-keys/api-keys.service.js';
import type { ApiKeyCreate } from '../api-keys/api-keys.schemas.js';
import { coreErrors } from '../core.errors.js';
import type { TenancyService } from '../tenancy/tenancy.service.js';

export interface MediaProvision {
  name: string;
  locales: string[];
  /** One of `locales`; the first of them when left out. */
  defaultLocale?: string | undefined;
  siteUrl?: string | undefined;
}

/**
 * What the deployment's operator does, across medias: create a media with its first admin key,
 * list medias, issue, list and revoke any media's keys. The CLI and /operator/v1 both call these;
 * no media's own key reaches them, and no request transaction holds them: they run on the database.
 */
export function createProvisioningService(deps: { db: Db; tenancy: TenancyService; apiKeys: ApiKeysService }) {
  const { db, tenancy, apiKeys } = deps;

  return {
    /** The media, its workspace and default statuses, and an admin key, in one transaction; the key's secret is answered once. */
    async createMedia(input: MediaProvision) {
      const locales = [...new Set(input.locales)];
      const defaultLocale = input.defaultLocale ?? locales[0]!;
      if (!locales.includes(defaultLocale)) {
        throw coreErrors.invalidDefaultLocale([{ path: 'default_locale', message: `must be one of ${locales.join(', ')}` }]);
      }
      return db.transaction(async (tx) => {
        const { media, workspace } = await tenancy.createMedia({ name: input.name, defaultLocale, locales, siteUrl: input.siteUrl ?? null }, tx);
        const adminKey = await apiKeys.create(media.id, { name: 'admin', role: 'admin' }, undefined, tx);
        return { media, workspace, adminKey };
      });
    },

    listMedia: (query: PagingQuery) => tenancy.listMedia(query),

    /** A new key of the media (404 media_not_found when there is none); its secret is answered once. */
    async createKey(mediaId: string, input: ApiKeyCreate) {
      await tenancy.getMedia(systemContext(db, mediaId));
      return apiKeys.create(mediaId, input);
    },

    /** The media's keys, revoked ones too, newest first (404 media_not_found when there is none); never a secret. */
    async listKeys(mediaId: string, query: PagingQuery) {
      await tenancy.getMedia(systemContext(db, mediaId));
      return apiKeys.listOfMedia(mediaId, query);
    },

    /** Revokes a key of any media; revoking twice keeps the first time (404 api_key_not_found when unknown). */
    revokeKey: (keyId: string) => apiKeys.revokeAnyMedia(keyId),
  };
}

export type ProvisioningService = ReturnType<typeof createProvisioningService>;
