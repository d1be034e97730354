import { type CacheBus, createCacheBus } from '../../../shared/cache-bus.js';
import type { Db, Executor } from '../../../db/client.js';
import { type RequestContext, afterCommit } from '../../../shared/context.js';
import { coreErrors } from '../core.errors.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import type { MediaUpdate, StatusCreate, WorkspaceCreate, WorkspaceUpdate } from './tenancy.schemas.js';
import type { MediaRow } from './tenancy.table.js';
import type { TenancyRepository } from './tenancy.repository.js';
import { LoadingCache } from '../../../shared/cache.js';
import type { MaybePromise } from '../../../shared/maybe-async.js';

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
  siteUrl?: string | null;
}

/**
 * Medias, their workspaces and statuses. A method given a context runs on its executor (`ctx.db`);
 * `deps.db` serves what no request's transaction holds: the cached lookups, start-up's and the operator's calls.
 */
/** Chains sent in a media update: every language in them must be one of the media's (400 naming each chain that is not). */
function checkedFallbacks(chains: Record<string, string[]>, locales: string[]): Record<string, string[]> {
  const strays = Object.entries(chains).flatMap(([asked, chain]) =>
    [asked, ...chain].every((l) => locales.includes(l)) ? [] : [{ path: `locale_fallbacks.${asked}`, message: `must name only ${locales.join(', ')}` }],
  );
  if (strays.length > 0) throw coreErrors.unsupportedLocale(strays);
  return Object.fromEntries(Object.entries(chains).map(([asked, chain]) => [asked, [...new Set(chain.filter((l) => l !== asked))]]));
}

/** The stored chains when the media's languages change: languages it no longer has leave them. */
const keptFallbacks = (chains: Record<string, string[]>, locales: string[]): Record<string, string[]> =>
  Object.fromEntries(
    Object.entries(chains)
      .filter(([asked]) => locales.includes(asked))
      .map(([asked, chain]) => [asked, chain.filter((l) => locales.includes(l))]),
  );

export function createTenancyService(deps: { db: Db; repo: TenancyRepository; cacheBus?: CacheBus }) {
  const { db, repo } = deps;

  // Media rows change rarely and are read on every Reader request for locale defaults.
  const cache = new LoadingCache<string, MediaRow>({ entries: 10_000, ttl: 30_000, load: (mediaId) => repo.findMedia(db, mediaId) });
  const forget = (deps.cacheBus ?? createCacheBus()).channel('media', cache);

  const loadMedia = async (ctx: RequestContext): Promise<MediaRow> => {
    const row = await repo.findMedia(ctx.db, ctx.mediaId);
    if (!row) throw coreErrors.mediaNotFound();
    return row;
  };

  /** The media, cached for a few seconds; undefined when there is none. */
  const findCachedMedia = (mediaId: string): MaybePromise<MediaRow | undefined> => cache.get(mediaId);

  /**
   * The context's media, cached for a few seconds. Inside a transaction a miss is read on it (the
   * cache's loader would need a connection the transaction may hold: PGlite has one) and not kept,
   * since the transaction may yet change or roll back what it read.
   */
  const cachedMedia = async (ctx: RequestContext): Promise<MediaRow> => {
    const row = ctx.tx ? (cache.peek(ctx.mediaId) ?? (await repo.findMedia(ctx.db, ctx.mediaId))) : await findCachedMedia(ctx.mediaId);
    if (!row) throw coreErrors.mediaNotFound();
    return row;
  };

  return {
    /** The context's media (404 media_not_found when there is none). */
    getMedia: loadMedia,

    /** The media, cached for a few seconds: for defaults such as the fallback locale. */
    cachedMedia,

    findCachedMedia,

    firstMedia: () => repo.firstMedia(db),

    /** Every media of the deployment, newest first: for its operator, never for a media's own key. */
    listMedia: (query: PagingQuery) => repo.listMedia(db, query),

    /** Locale entries must be in one of the media's languages (400 naming each other one). */
    async assertLocales(ctx: RequestContext, entries: Array<{ locale: string }>, path = 'locales'): Promise<void> {
      const media = await cachedMedia(ctx);
      const details = entries.flatMap((e, i) =>
        media.locales.includes(e.locale) ? [] : [{ path: `${path}.${i}.locale`, message: `must be one of ${media.locales.join(', ')}` }],
      );
      if (details.length > 0) throw coreErrors.unsupportedLocale(details);
    },

    /** A media with its first workspace and the default statuses, in one transaction (a savepoint inside `executor`'s). */
    async createMedia(input: NewMedia, executor: Executor = db) {
      return executor.transaction(async (tx) => {
        const media = await repo.insertMedia(tx, input);
        const workspace = await repo.insertWorkspace(tx, { mediaId: media.id, key: 'main', name: 'Main' });
        await repo.insertStatuses(
          tx,
          DEFAULT_STATUSES.map((s) => ({ ...s, mediaId: media.id })),
        );
        return { media, workspace };
      });
    },

    async updateMedia(ctx: RequestContext, patch: MediaUpdate) {
      const mediaId = ctx.mediaId;
      const current = await loadMedia(ctx);
      const locales = patch.locales ? [...new Set(patch.locales)] : current.locales;
      const defaultLocale = patch.default_locale ?? current.defaultLocale;
      if (!locales.includes(defaultLocale)) {
        throw coreErrors.invalidDefaultLocale([{ path: 'default_locale', message: `must be one of ${locales.join(', ')}` }]);
      }
      const siteUrl = patch.site_url === undefined ? current.siteUrl : patch.site_url;
      const localeFallbacks = patch.locale_fallbacks ? checkedFallbacks(patch.locale_fallbacks, locales) : keptFallbacks(current.localeFallbacks, locales);
      const row = await repo.updateMedia(ctx.db, mediaId, { name: patch.name ?? current.name, defaultLocale, locales, siteUrl, localeFallbacks, ...(patch.meter && { meterLimit: patch.meter.limit, meterPeriodDays: patch.meter.period_days }) });
      if (!row) throw coreErrors.mediaNotFound();
      // Once committed: forgotten earlier, a read meanwhile could cache the row as it was.
      afterCommit(ctx, () => forget(mediaId));
      return row;
    },

    listWorkspaces: (ctx: RequestContext, query: PagingQuery) => repo.listWorkspaces(ctx.db, ctx.mediaId, query),

    async getWorkspace(ctx: RequestContext, id: string) {
      const row = await repo.findWorkspace(ctx.db, ctx.mediaId, id);
      if (!row) throw coreErrors.workspaceNotFound();
      return row;
    },

    createWorkspace: (ctx: RequestContext, input: WorkspaceCreate) => repo.insertWorkspace(ctx.db, { mediaId: ctx.mediaId, ...input }),

    async updateWorkspace(ctx: RequestContext, id: string, patch: WorkspaceUpdate) {
      const row = await repo.updateWorkspace(ctx.db, ctx.mediaId, id, patch);
      if (!row) throw coreErrors.workspaceNotFound();
      return row;
    },

    listStatuses: (ctx: RequestContext, query: PagingQuery) => repo.listStatuses(ctx.db, ctx.mediaId, query),

    async createStatus(ctx: RequestContext, input: StatusCreate) {
      const [row] = await repo.insertStatuses(ctx.db, [
        { mediaId: ctx.mediaId, key: input.key, name: input.name, isPublished: input.is_published },
      ]);
      return row!;
    },
  };
}

export type TenancyService = ReturnType<typeof createTenancyService>;
