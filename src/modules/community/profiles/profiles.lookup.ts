import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { isoText } from '../../../shared/aggregate.js';
import { liveIdsIn } from '../../../shared/record/index.js';
import { isPublishedStatus } from '../../core/index.js';
import { type ProfileKind, SINGULAR } from './profiles.kinds.js';
import { profiles } from './profiles.table.js';

/** What readers may see of a profile: live (checked by callers) and in a published status. */
export const publishedProfile = isPublishedStatus(profiles.statusId);

/** The ids among `ids` that are live (not soft-deleted) records of that kind in the media. */
export async function liveProfileIds(db: Executor, mediaId: string, kind: ProfileKind | null, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(
      and(
        eq(profiles.mediaId, mediaId),
        kind ? eq(profiles.kind, SINGULAR[kind]) : undefined,
        inArray(profiles.id, [...new Set(ids)]),
        sql`${profiles.deletedAt} is null`,
      ),
    );
  return new Set(rows.map((r) => r.id));
}

/** The ids among `ids` that are live, published profiles of the media (of any kind): what readers may see. */
export const publishedProfileIds = liveIdsIn(profiles, publishedProfile);

/** Published, live records of a kind for sitemaps, ordered by id, keyset after `afterId` (only those with an http(s) canonical URL when `canonicalOnly`). */
export async function publishedProfileLinks(
  db: Executor,
  mediaId: string,
  kind: ProfileKind,
  page: { afterId?: string; limit: number; canonicalOnly?: boolean },
): Promise<Array<{ id: string; canonicalUrl: string | null; updatedAt: string }>> {
  return db
    .select({ id: profiles.id, canonicalUrl: profiles.canonicalUrl, updatedAt: isoText(profiles.updatedAt) })
    .from(profiles)
    .where(
      and(
        eq(profiles.mediaId, mediaId),
        eq(profiles.kind, SINGULAR[kind]),
        sql`${profiles.deletedAt} is null`,
        publishedProfile,
        page.afterId ? gt(profiles.id, page.afterId) : undefined,
        page.canonicalOnly ? sql`${profiles.canonicalUrl} ~* '^https?://'` : undefined,
      ),
    )
    .orderBy(asc(profiles.id))
    .limit(page.limit);
}
