import { sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type Computed, aggregate } from '../../../shared/aggregate.js';
import type { Paginator } from '../../../shared/paging.js';
import { StatementCache, rowsAsSelected } from '../../../shared/prepared.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { adCategories } from '../ad-categories/ad-categories.table.js';
import { adOpsErrors } from '../ad-ops.errors.js';
import { ads } from './ads.table.js';

const categoryOf: Computed<{ id: string; name: string }> = (col) =>
  sql`(select json_build_object('id', ${adCategories.id}, 'name', ${adCategories.name})
    from ${adCategories} where ${adCategories.id} = ${col(ads.categoryId)})`;

export const adAggregate = aggregate(ads, {
  owner: ads.mediaId,
  parts: {},
  conflict: adOpsErrors.adNotFound,
  // The category record the ad belongs to, in the ad's own statement.
  computed: { category: categoryOf },
});

export type AdRow = NonNullable<Awaited<ReturnType<typeof adAggregate.find>>>;

type Values = Pick<
  typeof ads.$inferInsert,
  'name' | 'priority' | 'businessReference' | 'categoryId' | 'startsAt' | 'endsAt' | 'timezone'
>;

/** A drawn ad with the creative chosen for it. */
export interface DrawnAd {
  id: string;
  name: string;
  advertiser_id: string;
  category: { id: string; name: string };
  creative_id: string;
  kind: 'image' | 'html';
  click_url: string;
  alt_text: string | null;
  width: number | null;
  height: number | null;
  html: string | null;
  file_key: string | null;
}

export interface DrawQuery {
  mediaId: string;
  now: Date;
  issueId: string | null;
  position: string | null;
  count: number;
}

// A creative can be served when it is live and either HTML or an image whose asset image is live.
const servable = (c: string, i: string) =>
  sql.raw(`${c}.deleted_at is null and (${c}.kind = 'html' or ${i}.id is not null)`);

/**
 * Weighted sampling without replacement in one statement (Efraimidis & Spirakis): each running
 * ad gets the key -ln(U)/priority with U uniform in (0, 1]; the `count` smallest keys are a
 * sample in which each draw picks a remaining ad with probability priority / sum of the rest.
 * Running: now in [starts_at, ends_at), advertiser active, at least one servable creative,
 * placed on the media (issue_id null) or on the asked issue, at the asked position or at none.
 */
const drawSql = sql`(
  select a.id, a.name, a.advertiser_id, a.category_id, -ln(1 - random()) / a.priority as draw_key
  from ads a
  join advertisers v on v.id = a.advertiser_id
  where a.media_id = ${sql.placeholder('media')}::uuid
    and a.ends_at > ${sql.placeholder('now')}::timestamptz
    and a.starts_at <= ${sql.placeholder('now')}::timestamptz
    and v.is_active
    -- Both checks: \`offset 0\` keeps each a probe of the candidate's own rows (by ad_id) rather
    -- than a semi-join that would hash the placements or creatives of every media.
    and exists (
      select 1 from ad_placements p
      where p.ad_id = a.id
        and (p.issue_id is null or p.issue_id = ${sql.placeholder('issue')}::uuid)
        and (${sql.placeholder('position')}::text is null or p.position is null or p.position = ${sql.placeholder('position')}::text)
      offset 0)
    and exists (
      select 1 from ad_creatives c left join asset_images i on i.id = c.image_id and i.deleted_at is null
      where c.ad_id = a.id and ${servable('c', 'i')}
      offset 0)
  order by draw_key
  limit ${sql.placeholder('count')}
) d
cross join lateral (
  select c.id, c.kind, c.click_url, c.alt_text, coalesce(c.width, f.width) as width, coalesce(c.height, f.height) as height,
    c.html, i.file_key
  from ad_creatives c
  left join asset_images i on i.id = c.image_id and i.deleted_at is null
  left join assets f on f.id = i.asset_id
  where c.ad_id = d.id and ${servable('c', 'i')}
  order by random()
  limit 1
) cr`;

const drawColumns = {
  id: sql<string>`d.id`.as('id'),
  name: sql<string>`d.name`.as('name'),
  advertiser_id: sql<string>`d.advertiser_id`.as('advertiser_id'),
  category: sql<{ id: string; name: string }>`(select json_build_object('id', k.id, 'name', k.name) from ad_categories k where k.id = d.category_id)`.as(
    'category',
  ),
  creative_id: sql<string>`cr.id`.as('creative_id'),
  kind: sql<'image' | 'html'>`cr.kind`.as('kind'),
  click_url: sql<string>`cr.click_url`.as('click_url'),
  alt_text: sql<string | null>`cr.alt_text`.as('alt_text'),
  width: sql<number | null>`cr.width`.as('width'),
  height: sql<number | null>`cr.height`.as('height'),
  html: sql<string | null>`cr.html`.as('html'),
  file_key: sql<string | null>`cr.file_key`.as('file_key'),
};

/** The draw's SQL text, for the benchmark's floor (the same statement on bare pg). */
export { drawSql as randomAdsSql };

export function createAdsRepository(pager: Paginator) {
  const statements = new StatementCache();

  return {
    listInAdvertiser: (db: Executor, mediaId: string, advertiserId: string, query: PagingQuery) =>
      adAggregate.page(pager, db, mediaId, query, {
        filter: { name: 'advertiser', where: sql`${ads.advertiserId} = ${sql.placeholder('advertiser')}::uuid`, params: { advertiser: advertiserId } },
      }),

    find: (db: Executor, mediaId: string, id: string) => adAggregate.find(db, id, mediaId),

    async insert(db: Executor, mediaId: string, advertiserId: string, values: Values): Promise<string> {
      const [row] = await db.insert(ads).values({ mediaId, advertiserId, ...values }).returning({ id: ads.id });
      return row!.id;
    },

    /** False when the media has no such ad. */
    async update(db: Executor, mediaId: string, id: string, values: Values): Promise<boolean> {
      const rows = await db
        .update(ads)
        .set({ ...values, updatedAt: new Date() })
        .where(sql`${ads.id} = ${id} and ${ads.mediaId} = ${mediaId}`)
        .returning({ id: ads.id });
      return rows.length > 0;
    },

    /** Whether ads of the media belong to the category: what keeps an ad category from being deleted (its `uses.ads`). */
    async categoryInUse(db: Executor, mediaId: string, categoryId: string): Promise<boolean> {
      const rows = await db
        .select({ one: sql`1` })
        .from(ads)
        .where(sql`${ads.categoryId} = ${categoryId} and ${ads.mediaId} = ${mediaId}`)
        .limit(1);
      return rows.length > 0;
    },

    /** Up to `count` running ads drawn by priority without repeats, each with one creative: one prepared statement. */
    draw(db: Executor, q: DrawQuery): Promise<DrawnAd[]> {
      let statement = statements.get<DrawnAd>(db, 'ads_random');
      if (!statement) {
        statement = statements.set(
          db,
          'ads_random',
          db.select(drawColumns).from(drawSql).orderBy(sql`d.draw_key`).prepare('ads_random') as never,
        );
      }
      return rowsAsSelected(statement, {
        media: q.mediaId,
        now: q.now.toISOString(),
        issue: q.issueId,
        position: q.position,
        count: q.count,
      });
    },
  };
}

export type AdsRepository = ReturnType<typeof createAdsRepository>;
