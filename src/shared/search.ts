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
    parent: ExtraConfigColumn;
    locale: ExtraConfigColumn;
    mediaId: ExtraConfigColumn;
    search: ExtraConfigColumn;
    title: ExtraConfigColumn;
    deletedAt: ExtraConfigColumn;
  },
) {
  const live = sql`${t.deletedAt} is null`;
  return [
    uniqueIndex(`${table}_live_uq`).on(t.parent, t.locale).where(live),
    index(`${table}_${t.parent.name.replace(/_id$/, '')}_idx`).on(t.parent),
    index(`${table}_search_idx`).using('gin', t.mediaId, t.search).where(live),
    index(`${table}_${t.title.name.replace(/_text$/, '')}_trgm_idx`).using('gin', t.title.op('gin_trgm_ops')).where(live),
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
  /** The stored document (tsvector, GIN-indexed). */
  document: PgColumn;
  /** The configuration it was built with. */
  config: PgColumn;
  /** The title, trigram-indexed (gin_trgm_ops). */
  title: PgColumn;
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

/**
 * The source of a ranked search page over records whose language entries hold the documents:
 * the hits (each record's best entry, `hits.hit_id` and `hits.rank`) in rank order, and each
 * hit's record read by primary key through a lateral subquery named like the root table (so
 * that an aggregate's columns read it), fenced (limit 1) so that the planner cannot turn the
 * lookups into a scan of every record of the owner. `q` and `mediaId` are placeholders, never
 * SQL; each arm keeps only the entries of `mediaId` (the full-text one finds them by its index).
 */
export function rankedHits(def: {
  /** The entries table, its parent column (the record's id) and its deleted_at. */
  entries: PgTable;
  parent: PgColumn;
  deletedAt: PgColumn;
  columns: SearchColumns;
  /** The root table and its id column. */
  root: PgTable;
  rootId: PgColumn;
  q: Placeholder;
  mediaId: Placeholder;
  configs: readonly string[];
}): { source: SQL; rank: SQL<number>; id: SQL<string> } {
  // The two halves of the match as two arms, each served by its own index (the documents' GIN, the
  // titles' trigram GIN): one OR over both lets the planner scan every entry computing similarity.
  // Each arm computes its own rank only: a document that matches ranks by its words (as searchRank), a
  // title found by similarity alone by half of it; an entry in both keeps the better.
  const arm = (rank: SQL, match: SQL) => sql`select ${def.parent} as hit_id, ${rank} as rank
    from ${def.entries} where ${def.deletedAt} is null and ${def.columns.mediaId} = ${def.mediaId} and (${match})`;
  const hits = sql`(select hit_id, max(rank)::real as rank
    from (${arm(documentRank(def.columns, def.q, def.configs), documentMatch(def.columns, def.q, def.configs))}
      union all ${arm(titleRank(def.columns, def.q), titleMatch(def.columns, def.q))}) as arms
    group by hit_id
    order by 2 desc nulls last, 1 desc nulls last) as hits`;
  const source = sql`${hits} cross join lateral (select * from ${def.root} where ${def.rootId} = hits.hit_id limit 1) as ${sql.identifier(getTableName(def.root))}`;
  return { source, rank: sql<number>`hits.rank`, id: sql<string>`hits.hit_id` };
}
