import type { Executor } from '../../../db/client.js';
import type { ErrorDetail } from '../../../shared/errors.js';
import { type RequestContext, transaction } from '../../../shared/context.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { zonedInstant } from '../../../shared/timezone.js';
import { adOpsErrors } from '../ad-ops.errors.js';
import type { AdsRepository } from './ads.repository.js';
import type { AdInput } from './ads.schemas.js';

export interface RandomQuery {
  issue_id?: string | undefined;
  position?: string | undefined;
  count: number;
}

export function createAdsService(deps: {
  repo: AdsRepository;
  advertiserExists: (executor: Executor, mediaId: string, id: string) => Promise<boolean>;
  categoryExists: (executor: Executor, mediaId: string, id: string) => Promise<boolean>;
  /** The clock of the draw (tests move it across a DST change). */
  now?: () => Date;
}) {
  const { repo } = deps;
  const now = deps.now ?? (() => new Date());

  const load = async (executor: Executor, mediaId: string, id: string) => {
    const row = await repo.find(executor, mediaId, id);
    if (!row) throw adOpsErrors.adNotFound();
    return row;
  };

  /** The body's window as instants: wall-clock times are read in the ad's zone; the end must follow the start. */
  const windowOf = (input: AdInput) => {
    const startsAt = zonedInstant(input.starts_at, input.timezone);
    const endsAt = zonedInstant(input.ends_at, input.timezone);
    const details: ErrorDetail[] = [];
    for (const [path, at] of [['starts_at', startsAt], ['ends_at', endsAt]] as const) {
      if (at.getUTCFullYear() < 1000 || at.getUTCFullYear() > 9999) details.push({ path, message: 'must fall between the years 1000 and 9999 in UTC' });
    }
    if (details.length > 0) throw adOpsErrors.invalidWindow(details);
    if (endsAt <= startsAt) throw adOpsErrors.invalidWindow([{ path: 'ends_at', message: 'must be after starts_at' }]);
    return { startsAt, endsAt };
  };

  const valuesOf = (input: AdInput, window: { startsAt: Date; endsAt: Date }) => ({
    name: input.name,
    priority: input.priority,
    businessReference: input.business_reference ?? null,
    categoryId: input.category.id,
    startsAt: window.startsAt,
    endsAt: window.endsAt,
    timezone: input.timezone,
  });

  const assertCategory = async (executor: Executor, mediaId: string, id: string) => {
    if (!(await deps.categoryExists(executor, mediaId, id))) {
      throw adOpsErrors.referenceNotFound('ad_category_not_found', 'the ad category', 'category.id');
    }
  };

  return {
    listInAdvertiser: async (ctx: RequestContext, advertiserId: string, query: PagingQuery) => {
      if (!(await deps.advertiserExists(ctx.db, ctx.mediaId, advertiserId))) throw adOpsErrors.advertiserNotFound();
      return repo.listInAdvertiser(ctx.db, ctx.mediaId, advertiserId, query);
    },

    get: (ctx: RequestContext, id: string) => load(ctx.db, ctx.mediaId, id),

    /** Whether the ad is one of the media's (placements and creatives hang under it). */
    exists: async (executor: Executor, mediaId: string, id: string) => (await repo.find(executor, mediaId, id)) !== undefined,

    /** Spec 4.2: 400 for a bad body or one naming another advertiser, 404 for an unknown advertiser or category. */
    async create(ctx: RequestContext, advertiserId: string, input: AdInput) {
      if (input.advertiser_id !== advertiserId) throw adOpsErrors.advertiserMismatch();
      const window = windowOf(input);
      return transaction(ctx, async (tx) => {
        if (!(await deps.advertiserExists(tx, ctx.mediaId, advertiserId))) throw adOpsErrors.advertiserNotFound();
        await assertCategory(tx, ctx.mediaId, input.category.id);
        const id = await repo.insert(tx, ctx.mediaId, advertiserId, valuesOf(input, window));
        return load(tx, ctx.mediaId, id);
      });
    },

    /** A full replace; the ad stays with its advertiser (400 when the body names another). */
    async replace(ctx: RequestContext, id: string, input: AdInput) {
      const window = windowOf(input);
      return transaction(ctx, async (tx) => {
        const current = await load(tx, ctx.mediaId, id);
        if (input.advertiser_id !== current.advertiserId) throw adOpsErrors.advertiserMismatch();
        await assertCategory(tx, ctx.mediaId, input.category.id);
        await repo.update(tx, ctx.mediaId, id, valuesOf(input, window));
        return load(tx, ctx.mediaId, id);
      });
    },

    /** Running ads of the media (or the issue), drawn by priority without repeats. */
    random: (ctx: RequestContext, query: RandomQuery) =>
      repo.draw(ctx.db, {
        mediaId: ctx.mediaId,
        now: now(),
        issueId: query.issue_id ?? null,
        position: query.position ?? null,
        count: query.count,
      }),
  };
}

export type AdsService = ReturnType<typeof createAdsService>;
