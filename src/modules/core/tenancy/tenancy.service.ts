import { LRUCache } from 'lru-cache';
import type { Db } from '../../../db/client.js';
import { errors } from '../../../shared/errors.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import type { MediaUpdate, StatusCreate, WorkspaceCreate, WorkspaceUpdate } from './tenancy.schemas.js';
import type { MediaRow } from './tenancy.table.js';
import type { TenancyRepository } from './tenancy.repository.js';

/** The statuses every media starts with; publishing rules look them up by key. */
export const DEFAULT_STATUSES = [
  { key: 'draft', name: 'Draft', isPublished: false },
  { key: 'published', name: 'Published', isPublished: true },
  { key: 'unpublished', name: 'Unpublished', isPublished: false },
] as const;

export interface NewMedia {
  name: string;
  defaultLocale: string;
  locales: string[];
}

export function createTenancyService(deps: { db: Db; repo: TenancyRepository }) {
  const { db, repo } = deps;

  // Media rows change rarely and are read on every Reader request for locale defaults.
  const cache = new LRUCache<string, MediaRow>({ max: 10_000, ttl: 30_000 });

  const loadMedia = async (mediaId: string): Promise<MediaRow> => {
    const row = await repo.findMedia(db, mediaId);
    if (!row) throw errors.notFound('media');
    return row;
  };

  return {
    getMedia: loadMedia,

    /** The media, cached for a few seconds: for defaults such as the fallback locale. */
    async cachedMedia(mediaId: string): Promise<MediaRow> {
      const hit = cache.get(mediaId);
      if (hit) return hit;
      const row = await loadMedia(mediaId);
      cache.set(mediaId, row);
      return row;
    },

    firstMedia: () => repo.firstMedia(db),

    /** Whether the media exists, answered from the same cache as cachedMedia. */
    async mediaExists(mediaId: string): Promise<boolean> {
      if (cache.has(mediaId)) return true;
      const row = await repo.findMedia(db, mediaId);
      if (row) cache.set(mediaId, row);
      return Boolean(row);
    },

    /** A media with its first workspace and the default statuses, in one transaction. */
    async createMedia(input: NewMedia) {
      return db.transaction(async (tx) => {
        const media = await repo.insertMedia(tx, input);
        const workspace = await repo.insertWorkspace(tx, { mediaId: media.id, key: 'main', name: 'Main' });
        await repo.insertStatuses(
          tx,
          DEFAULT_STATUSES.map((s) => ({ ...s, mediaId: media.id })),
        );
        return { media, workspace };
      });
    },

    async updateMedia(mediaId: string, patch: MediaUpdate) {
      const current = await loadMedia(mediaId);
      const locales = patch.locales ? [...new Set(patch.locales)] : current.locales;
      const defaultLocale = patch.default_locale ?? current.defaultLocale;
      if (!locales.includes(defaultLocale)) {
        throw errors.badRequest('invalid_default_locale', 'default_locale must be one of locales', [
          { path: 'default_locale', message: `must be one of ${locales.join(', ')}` },
        ]);
      }
      const row = await repo.updateMedia(db, mediaId, { name: patch.name ?? current.name, defaultLocale, locales });
      if (!row) throw errors.notFound('media');
      cache.delete(mediaId);
      return row;
    },

    listWorkspaces: (mediaId: string, query: PagingQuery) => repo.listWorkspaces(db, mediaId, query),

    async getWorkspace(mediaId: string, id: string) {
      const row = await repo.findWorkspace(db, mediaId, id);
      if (!row) throw errors.notFound('workspace');
      return row;
    },

    createWorkspace: (mediaId: string, input: WorkspaceCreate) => repo.insertWorkspace(db, { mediaId, ...input }),

    async updateWorkspace(mediaId: string, id: string, patch: WorkspaceUpdate) {
      const row = await repo.updateWorkspace(db, mediaId, id, patch);
      if (!row) throw errors.notFound('workspace');
      return row;
    },

    listStatuses: (mediaId: string, query: PagingQuery) => repo.listStatuses(db, mediaId, query),

    async createStatus(mediaId: string, input: StatusCreate) {
      const [row] = await repo.insertStatuses(db, [
        { mediaId, key: input.key, name: input.name, isPublished: input.is_published },
      ]);
      return row!;
    },
  };
}

export type TenancyService = ReturnType<typeof createTenancyService>;
