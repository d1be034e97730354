import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestApp } from '../setup/app.js';
import { type CommunityFixture, communityFixture, createProfile } from '../setup/community.js';
import { type SeededMedia, client, seedMedia } from '../setup/factories.js';
import { type CapturedStatement, captureStatements, explainNodes, onPostgres } from '../setup/plans.js';
import { clientToken, readerClient, registerClient } from '../setup/reader.js';

/** People of a media written set-based: two languages each, names and summaries searchable. */
const seedPeopleSql = `
  with p as (
    insert into profiles (id, media_id, kind, workspace_id, status_id, profile_type_id, first_name, last_name, inserted_at, updated_at)
    select gen_random_uuid(), $1, 'person', $2, $3, $4,
           (array['Ada','Grace','Alan','Edsger','Barbara','Donald','Frances','John'])[1 + n % 8],
           'Surname' || n || case when n % 500 = 0 then ' Lovelace' else '' end,
           now() - n * interval '1 second', now()
    from generate_series(1, $5::int) n
    returning id, media_id, first_name, last_name
  )
  insert into profile_locales (id, profile_id, media_id, locale, summary_html, summary_text, name_text, search_config, search)
  select gen_random_uuid(), p.id, p.media_id, l.locale, 'Writer', 'Writer', p.first_name || ' ' || p.last_name, l.config,
         setweight(to_tsvector(l.config::regconfig, p.first_name || ' ' || p.last_name), 'A') || setweight(to_tsvector(l.config::regconfig, 'Writer'), 'B')
  from p cross join (values ('en', 'english'), ('fr', 'french')) as l(locale, config)`;

describe.skipIf(!onPostgres)('the people search and list are index scans, never a scan of profiles', () => {
  let ctx: TestContext;
  let media: SeededMedia;
  let f: CommunityFixture;
  let reader: ReturnType<typeof readerClient>;
  const captured: CapturedStatement[] = [];

  beforeAll(async () => {
    ctx = await createTestApp({}, {}, { fresh: true });
    media = await seedMedia(ctx.app);
    const api = client(ctx.app, media.keys.editor);
    f = await communityFixture(api, media.workspaceId);
    await createProfile(api, f, 'people', { first_name: 'Ada', last_name: 'Lovelace', locales: [{ locale: 'en', summary_html: 'First programmer' }] });
    const pool = ctx.database.pool!;
    const other = await seedMedia(ctx.app);
    const otherApi = client(ctx.app, other.keys.editor);
    const otherF = await communityFixture(otherApi, other.workspaceId);
    for (const [m, fx] of [
      [media.mediaId, f],
      [other.mediaId, otherF],
    ] as const) {
      await pool.query(seedPeopleSql, [m, fx.workspaceId, fx.statuses.published, fx.types.people, 10_000]);
    }
    // Statistics from every row, not from analyze's random sample of 30,000: with a sample the
    // trigram arm's estimate moved from run to run and the plan with it.
    await pool.query('set default_statistics_target = 1000; analyze profiles; analyze profile_locales; analyze profile_categories; reset default_statistics_target');
    const token = (await clientToken(ctx.app, await registerClient(ctx.app, media.keys.admin, ['media:read']))).access_token;
    reader = readerClient(ctx.app, media.mediaId, token);

    captureStatements(pool, /"profiles"/, captured);
  });
  afterAll(() => ctx?.close());

  const explain = (text: string, values: unknown[]) =>
    explainNodes(ctx.database, text, values, ['set pg_trgm.word_similarity_threshold = 0.4']);

  it.each([
    ['a common name', 'Lovelace'],
    ['a typo', 'Lovelase'],
  ])('a search for %s reads the profiles of its hits by primary key until the page is full, the entries through their indexes', async (_, q) => {
    captured.length = 0;
    const found = (await reader.get(`/api/media/v1/community/people/search?q=${q}&limit=5`)).json();
    expect(found.data.length).toBe(5);
    const search = captured.find((c) => /hits/.test(c.text))!;
    const plan = await explain(search.text, search.values);
    // (The contact's allowed fields read its profile's type by primary key, alias pr: not a scan of profiles.)
    const profileScans = plan.filter((n) => n['Relation Name'] === 'profiles' && n.Alias !== 'pr');
    expect(profileScans.map((n) => [n['Node Type'], n['Index Name']])).toEqual([['Index Scan', 'profiles_pkey']]);
    expect(profileScans[0]!['Actual Loops']).toBeLessThanOrEqual(20);
    // The typo arm (word similarity, costly per entry) always goes through the names' trigram index;
    // the full-text arm may be a scan at this size (40,000 entries), the README shows the bench's
    // 200,000 read through the documents' GIN index.
    const entryScans = plan.filter((n) => n['Relation Name'] === 'profile_locales');
    expect(entryScans.some((n) => n['Node Type'] === 'Seq Scan' && /<%/.test(n.Filter ?? '')), JSON.stringify(entryScans)).toBe(false);
    expect(plan.some((n) => n['Index Name'] === 'profile_locales_name_trgm_idx')).toBe(true);
  });

  it('filters only: a page walks profiles_media_kind_page_idx for about a page of rows', async () => {
    captured.length = 0;
    const res = await reader.get(`/api/media/v1/community/people/search?profile_type_ids[]=${f.types.people}&limit=20`);
    expect(res.json().data).toHaveLength(20);
    const page = captured.find((c) => /order by/.test(c.text))!;
    const scans = (await explain(page.text, page.values)).filter((n) => n['Relation Name'] === 'profiles' && n.Alias === 'profiles');
    expect(scans.map((n) => [n['Node Type'], n['Index Name']])).toEqual([['Index Scan', 'profiles_media_kind_page_idx']]);
    expect(scans[0]!['Actual Rows']).toBeLessThanOrEqual(21);
  });
});
