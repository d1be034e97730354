import { type Placeholder, type SQL, getTableName, sql } from 'drizzle-orm';
import { type ExtraConfigColumn, type PgColumn, type PgTable, customType, index, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { deletedAt, timestamps } from '../db/columns.js';

/**
 * Full-text search, written once (CONVENTIONS, "Reader lists, assocs and search"): each
 * language entry stores a weighted document (title A, standfirst B, body C) built with its
 * language's text-search configuration; a query matches a document through the same
 * configuration, and a title through pg_trgm word similarity so that a typo still finds it.
 * Results rank as `real` and page by cursor over (rank, id) like any listing.
 */

/** A stored search document. */
export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * The columns a searchable language entry ends with: its record's media (copied from the record,
 * so that the search indexes start with it and a search reads its own media's entries only), its
 * configuration, its document, timestamps and soft delete.
 */
export const searchableEntryColumns = () => ({
  mediaId: uuid('media_id').notNull(),
  searchConfig: text('search_config').notNull(),
  search: tsvector('search'),
  ...timestamps(),
  deletedAt: deletedAt(),
});

/**
 * The indexes of a table of searchable language entries (`<table>_…`): one live entry per parent
 * and locale, the parent's lookups, and over live rows the document's GIN, led by the media
 * (btree_gin) so that a full-text search of one media never reads another's matches, and the
 * title's trigram GIN (for typo matches; the media filters its few candidates: led by the media,
 * PostgreSQL costs it above a sequential scan whenever one media holds most entries). Named from
 * the columns: `profile_id` → `_profile_idx`, `name_text` → `_name_trgm_idx`.
 */
export function searchableEntryIndexes(
  table: string,
  t: {
    id: ExtraConfigColumn;
    parent: ExtraConfigColumn;
    locale: ExtraConfigColumn;
    mediaId: ExtraConfigColumn;
    search: ExtraConfigColumn;
    title: ExtraConfigColumn;
    insertedAt: ExtraConfigColumn;
    deletedAt: ExtraConfigColumn;
  },
) {
  const live = sql`${t.deletedAt} is null`;
  const title = t.title.name.replace(/_text$/, '');
  return [
    uniqueIndex(`${table}_live_uq`).on(t.parent, t.locale).where(live),
    index(`${table}_${t.parent.name.replace(/_id$/, '')}_idx`).on(t.parent),
    index(`${table}_search_idx`).using('gin', t.mediaId, t.search).where(live),
    index(`${table}_${title}_trgm_idx`).using('gin', t.title.op('gin_trgm_ops')).where(live),
    // A small media's typo arm reads its own titles only, whoever else shares the table (the
    // title-only index above serves a media that holds most entries, where this one costs more).
    index(`${table}_media_${title}_trgm_idx`).using('gin', t.mediaId, t.title.op('gin_trgm_ops')).where(live),
    // A relevance search's candidates: the media's newest matching entries, walked in this order
    // when its words are common (and found through the GIN indexes, then sorted, when they are not).
    index(`${table}_recent_idx`).on(t.mediaId, t.insertedAt.desc(), t.id.desc()).where(live),
  ];
}

/** The text-search configurations of the languages PostgreSQL stems; any other language is `simple`. */
const CONFIG_BY_LANGUAGE: Record<string, string> = {
  ar: 'arabic', ca: 'catalan', da: 'danish', de: 'german', el: 'greek', en: 'english', es: 'spanish', eu: 'basque',
  fi: 'finnish', fr: 'french', ga: 'irish', hu: 'hungarian', hy: 'armenian', id: 'indonesian', it: 'italian',
  lt: 'lithuanian', ne: 'nepali', nl: 'dutch', no: 'norwegian', nb: 'norwegian', pt: 'portuguese', ro: 'romanian',
  ru: 'russian', sr: 'serbian', sv: 'swedish', ta: 'tamil', tr: 'turkish', yi: 'yiddish',
};

/** The configuration of a locale's language (`fr-CH` → `french`), `simple` when PostgreSQL has none. */
export const searchConfigOf = (locale: string): string => CONFIG_BY_LANGUAGE[locale.split('-')[0]!] ?? 'simple';

/** The configurations of a media's languages, sorted and each once: the branches of its searches. */
export const searchConfigsOf = (locales: readonly string[]): string[] => [...new Set(locales.map(searchConfigOf))].sort();

/** `q`: 1 to 200 characters of free text (quotes make a phrase, `-word` excludes, `or` alternates). */
export const searchText = z
  .string()
  .min(1)
  .max(200)
  .refine((q) => q.trim().length > 0, { message: 'must not be blank' })
  .describe('Search text, 1 to 200 characters: words (stemmed per language), "a phrase", -excluded, or; a typo in a title word is tolerated');

const KNOWN_CONFIGS = new Set([...Object.values(CONFIG_BY_LANGUAGE), 'simple']);

// Configurations are written into the SQL as literals (a function resolves `regconfig` from a
// literal, and each branch needs a constant for its index scan): only known names get there.
const literal = (config: string) => {
  if (!KNOWN_CONFIGS.has(config)) throw new Error(`unknown text search configuration ${config}`);
  return sql.raw(`'${config}'`);
};

/**
 * The weighted document of one language entry, from its texts (null texts count as empty), in
 * `config` (its configuration column cast to regconfig, or a literal).
 */
export function searchDocument(config: SQL, texts: { a: SQL | PgColumn; b?: SQL | PgColumn; c?: SQL | PgColumn }): SQL<string> {
  const part = (text: SQL | PgColumn | undefined, weight: string) =>
    text ? sql`setweight(to_tsvector(${config}, coalesce(${text}, '')), ${sql.raw(`'${weight}'`)})` : undefined;
  return sql<string>`${sql.join(
    [part(texts.a, 'A'), part(texts.b, 'B'), part(texts.c, 'C')].filter((p): p is SQL => p !== undefined),
    sql` || `,
  )}`;
}

export interface SearchColumns {
  /** The entry's media, leading the documents' index. */
  mediaId: PgColumn;
  /** The entry's id and insertion time: the order of a relevance search's candidates (`_recent_idx`). */
  id: PgColumn;
  insertedAt: PgColumn;
  /** The stored document (tsvector, GIN-indexed). */
  document: PgColumn | SQL;
  /** The configuration it was built with. */
  config: PgColumn | SQL;
  /** The title, trigram-indexed (gin_trgm_ops). */
  title: PgColumn | SQL;
}

/**
 * Whether an entry matches `q`: its document in its own configuration (one branch per
 * configuration in `configs`, the media's languages', each served by the document's GIN
 * index), or its title by trigram word similarity (served by the title's trigram index); only
 * the entries of `mediaId`. `q` is a bound parameter, never SQL.
 */
export function searchMatch(columns: SearchColumns, q: SQL | Placeholder, configs: readonly string[], mediaId: SQL | Placeholder): SQL {
  return sql`(${columns.mediaId} = ${mediaId} and (${documentMatch(columns, q, configs)} or ${titleMatch(columns, q)}))`;
}

/** The full-text half of `searchMatch`: the document in its own configuration, one branch per configuration. */
export function documentMatch(columns: SearchColumns, q: SQL | Placeholder, configs: readonly string[]): SQL {
  const byConfig = configs.map(
    (config) => sql`(${columns.config} = ${literal(config)} and ${columns.document} @@ websearch_to_tsquery(${literal(config)}, ${q}))`,
  );
  return sql.join(byConfig, sql` or `);
}

/** The typo half of `searchMatch`: the title by pg_trgm word similarity. */
export const titleMatch = (columns: SearchColumns, q: SQL | Placeholder): SQL => sql`${q} <% ${columns.title}`;

/**
 * The relevance of an entry: the document's rank when its words match (a title word weighs
 * five times a body word), else half its title's trigram word similarity (a typo), so that
 * exact matches in titles come first and word similarity is computed only for typo matches.
 * The query is parsed once per configuration (an InitPlan), not once per entry. `real`, as
 * the cursor carries it.
 */
export function searchRank(columns: SearchColumns, q: SQL | Placeholder, configs: readonly string[]): SQL<number> {
  return sql<number>`coalesce(nullif(${documentRank(columns, q, configs)}, 0), ${titleRank(columns, q)})::real`;
}

/** The document's rank for `q` (a title word weighs five times a body word); the query parsed once per configuration. */
function documentRank(columns: SearchColumns, q: SQL | Placeholder, configs: readonly string[]): SQL<number> {
  const query = sql`case ${columns.config} ${sql.join(
    configs.map((config) => sql`when ${literal(config)} then (select websearch_to_tsquery(${literal(config)}, ${q}))`),
    sql` `,
  )} end`;
  return sql<number>`ts_rank('{0.1, 0.2, 0.5, 1.0}', ${columns.document}, ${query})`;
}

/** A typo match's rank: half the title's word similarity, below the documents whose words match. */
const titleRank = (columns: SearchColumns, q: SQL | Placeholder): SQL<number> => sql<number>`word_similarity(${q}, ${columns.title}) / 2`;

/** How similar a query must be to a title word to count (pg_trgm's default, 0.6, misses one typo in a short word). */
export const WORD_SIMILARITY_THRESHOLD = 0.4;

/**
 * Settings of every database session (the pool's connections, PGlite's one session): `<%`
 * reads its threshold from the session, so searches need no transaction to set it.
 */
export const SEARCH_SESSION_SETTINGS: Record<string, string> = {
  'pg_trgm.word_similarity_threshold': String(WORD_SIMILARITY_THRESHOLD),
};

/** How many candidates each arm of a relevance search ranks at most (CONVENTIONS, "Search"). */
export const SEARCH_CANDIDATES = 1_000;

/** A search's order: `relevance` (the default) or `newest`. */
export type SearchSort = 'relevance' | 'newest';

/** `sort`: how a search orders its results; every search takes it. */
export const searchSort = z
  .enum(['relevance', 'newest'])
  .default('relevance')
  .describe(
    `relevance (default): the best matches first among the ${SEARCH_CANDIDATES.toLocaleString('en')} most recently added language entries whose words match ` +
      `and, when fewer match, the ${SEARCH_CANDIDATES.toLocaleString('en')} most recently added whose title is similar to the text (a typo); ` +
      'newest: every match, in the listing\'s own newest-first order',
  );

/** A search over the language entries of one kind of record: the entries, their record, and the query's placeholders. */
export interface EntrySearch {
  /** The entries table, its parent column (the record's id) and its deleted_at. */
  entries: PgTable;
  parent: PgColumn;
  deletedAt: PgColumn;
  columns: SearchColumns;
  q: SQL | Placeholder;
  mediaId: SQL | Placeholder;
  configs: readonly string[];
}

/**
 * The ranked candidates of a relevance search, SQL of a derived table `(hit_id, rank)` (in no
 * order): each record's best entry among a bounded candidate set, so that a search costs about
 * the same whatever the number of matches. Two arms, each served by its own indexes: the
 * `SEARCH_CANDIDATES` most recently added entries of the media whose document matches (ranked by
 * their words, a title word five times a body word), and as many whose title is similar to the
 * query (a typo, ranked by half the title's word similarity), this one only when the first found
 * fewer than its candidates (a common word needs no typo). Each arm is the media's newest
 * entries walked until it has its candidates (`_recent_idx`, when matches are common) or its
 * matches found through the GIN indexes and the newest kept (when they are rare): PostgreSQL
 * chooses by how common the words are, so the statement must be planned with its values
 * (`customPlans`). An entry in both arms keeps the better rank.
 */
export function rankedCandidates(def: EntrySearch): SQL {
  const { columns, q, configs } = def;
  const arm = (rank: SQL, match: SQL) => sql`select hit_id, ${rank} as rank from (
      select ${def.parent} as hit_id, ${columns.document} as document, ${columns.config} as config, ${columns.title} as title
      from ${def.entries}
      where ${def.deletedAt} is null and ${columns.mediaId} = ${def.mediaId} and (${match})
      order by ${columns.insertedAt} desc nulls last, ${columns.id} desc nulls last
      limit ${sql.raw(String(SEARCH_CANDIDATES))}) as candidates`;
  // The ranks read the candidates' own columns (the derived table's), not the entries table's.
  const candidate = { ...columns, document: sql`candidates.document`, config: sql`candidates.config`, title: sql`candidates.title` };
  // The typo arm runs only when the words' arm found fewer than its candidates: its word similarity
  // is computed entry by entry, and a common word (whose words' arm is full) would have it computed
  // for thousands of titles that the words' arm ranks anyway.
  return sql`(with words as (${arm(documentRank(candidate, q, configs), documentMatch(columns, q, configs))})
    select hit_id, max(rank)::real as rank
    from (select hit_id, rank from words
      union all select hit_id, rank from (${arm(titleRank(candidate, q), titleMatch(columns, q))}) as typos
        where (select count(*) from words) < ${sql.raw(String(SEARCH_CANDIDATES))}) as arms
    group by hit_id)`;
}

/**
 * Whether a record has a live entry of `mediaId` that matches `q` (its document or, a typo, its
 * title): the filter of a `newest` search, which walks the listing's own newest-first index and
 * stops once the page is full (when matches are rare, PostgreSQL finds them through the search
 * indexes and sorts them instead). `recordId` is the record's id column.
 */
export function matchedBy(def: EntrySearch, recordId: PgColumn | SQL): SQL {
  return sql`exists (select 1 from ${def.entries} where ${def.parent} = ${recordId} and ${def.deletedAt} is null
    and ${searchMatch(def.columns, def.q, def.configs, def.mediaId)})`;
}

/**
 * The source of a ranked search page over records whose language entries hold the documents:
 * the hits (`rankedCandidates`: `hits.hit_id` and `hits.rank`) in rank order, and each hit's
 * record read by primary key through a lateral subquery named like the root table (so that an
 * aggregate's columns read it), fenced (limit 1) so that the planner cannot turn the lookups
 * into a scan of every record of the owner. `q` and `mediaId` are placeholders, never SQL.
 */
export function rankedHits(def: EntrySearch & {
  /** The root table and its id column. */
  root: PgTable;
  rootId: PgColumn;
}): { source: SQL; rank: SQL<number>; id: SQL<string> } {
  const hits = sql`(select hit_id, rank from ${rankedCandidates(def)} as ranked
    order by 2 desc nulls last, 1 desc nulls last) as hits`;
  const source = sql`${hits} cross join lateral (select * from ${def.root} where ${def.rootId} = hits.hit_id limit 1) as ${sql.identifier(getTableName(def.root))}`;
  return { source, rank: sql<number>`hits.rank`, id: sql<string>`hits.hit_id` };
}
