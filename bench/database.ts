import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { type Database, createDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';

/** Plain SQL on the connection the app uses: its pg pool, or its PGlite instance. */
/** Runs SQL; with a name, as that named prepared statement (PostgreSQL). */
export type RawQuery = (text: string, values?: unknown[], name?: string) => Promise<Record<string, unknown>[]>;

export interface BenchDatabase {
  database: Database;
  /** A short description for the report, without credentials. */
  label: string;
  /** The database's URL (PostgreSQL), for a service process of its own on the same data; undefined on PGlite (in this process's memory). */
  url?: string;
  query: RawQuery;
  /** The object whose `query` method Drizzle calls, so its SQL can be captured. */
  driver: object;
  /** Drops what the bench created; safe to call twice. */
  dispose: () => Promise<void>;
}

const withDatabase = (url: string, name: string): string => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

/** `work` with the URL of a database `name` of its own on the server of `serverUrl`, dropped afterwards. */
export async function onScratchDatabase<T>(serverUrl: string, name: string, work: (url: string) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  try {
    return await work(withDatabase(serverUrl, name));
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

/**
 * A fresh, migrated database that nothing else uses: on the server of `databaseUrl`
 * a database of its own (dropped by dispose), otherwise an in-memory PGlite.
 */
export async function openBenchDatabase(databaseUrl: string | undefined): Promise<BenchDatabase> {
  if (!databaseUrl) {
    const database = await createDatabase({});
    await migrate(database);
    // Drizzle keeps its driver as $client: the floor must run on this very instance.
    const client = (database.db as unknown as { $client: PGlite }).$client;
    let closed = false;
    return {
      database,
      label: 'PGlite (in memory)',
      query: async (text, values) => (await client.query<Record<string, unknown>>(text, values)).rows,
      driver: client,
      dispose: async () => {
        if (closed) return;
        closed = true;
        if (!client.closed) await client.close();
      },
    };
  }

  // The pid keeps two runs on one server apart; the name says what it is if one is left behind.
  const name = `mps_bench_${process.pid}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  const url = new URL(databaseUrl);
  let database: Database | undefined;
  let dropped = false;
  const dispose = async () => {
    if (dropped) return;
    dropped = true;
    // ending twice rejects; the app's onClose hook may already have ended the pool
    await database?.pool?.end().catch(() => {});
    // BENCH_KEEP_DATABASE=1 leaves the seeded database for EXPLAIN and experiments (its name is printed).
    if (process.env.BENCH_KEEP_DATABASE) console.log(`Kept the bench database ${name}`);
    else await admin(`drop database if exists ${name} with (force)`);
  };
  try {
    database = await createDatabase({ databaseUrl: withDatabase(databaseUrl, name) });
    await migrate(database);
  } catch (err) {
    await dispose();
    throw err;
  }
  const pool = database.pool!;
  return {
    database,
    label: `PostgreSQL ${url.hostname}:${url.port || 5432}/${name} (pool ${pool.options.max})`,
    url: withDatabase(databaseUrl, name),
    query: async (text, values, name) =>
      (await pool.query<Record<string, unknown>>({ text, values: values ?? [], ...(name && { name }) })).rows,
    driver: pool,
    dispose,
  };
}

/**
 * Seeds `count` categories of one media, each with an `en` and an `fr` entry, in two
 * set-based statements. Rows are one millisecond apart (distinct inserted_at, as the
 * keyset order needs) and their ids are UUIDv7 built from that same instant, so the id
 * order matches the insertion order as it does for rows the app writes.
 */
export async function seedCategories(query: RawQuery, mediaId: string, count: number): Promise<void> {
  // Only the random bits differ from the uuidv7 package: 48-bit ms time, version 7, variant 10.
  await query(
    `insert into categories (id, media_id, svg_icon, is_archived, inserted_at, updated_at)
     select (lpad(to_hex(floor(extract(epoch from ts) * 1000)::bigint), 12, '0')
             || '7' || substr(r, 1, 3) || substr('89ab', 1 + n % 4, 1) || substr(r, 4, 15))::uuid,
            $1::uuid, null, false, ts, ts
     from (
       select n, ts, md5(random()::text || n::text) as r
       from (
         select n, date_trunc('milliseconds', now()) - interval '1 hour' + n * interval '1 millisecond' as ts
         from generate_series(1, $2::int) as n
       ) numbered
     ) raw`,
    [mediaId, count],
  );
  // A counter in the random field (000 for en, 001 for fr) orders a category's entries as
  // the uuidv7 package does for ids made in the same millisecond.
  await query(
    `insert into category_locales (id, category_id, locale, name, description, inserted_at, updated_at)
     select (substr(replace(c.id::text, '-', ''), 1, 12) || '7' || lpad(l.ord::text, 3, '0')
             || substr('89ab', (1 + (c.seq + l.ord) % 4)::int, 1) || substr(md5(random()::text || c.id::text || l.locale), 1, 15))::uuid,
            c.id, l.locale, l.label || ' ' || c.seq, l.description || ' ' || c.seq, c.inserted_at, c.inserted_at
     from (
       select id, inserted_at, row_number() over (order by inserted_at) as seq
       from categories where media_id = $1::uuid
     ) c
     cross join (values
       (0, 'en', 'Category', 'Stories filed under category'),
       (1, 'fr', 'Catégorie', 'Articles classés dans la catégorie')
     ) as l(ord, locale, label, description)`,
    [mediaId],
  );
  // Settle the tables as a long-lived database would be: statistics, hint bits and the
  // visibility map set, so autovacuum does not wake up in the middle of the first run.
  await query('vacuum analyze categories');
  await query('vacuum analyze category_locales');
}

/** `count` ids of a media's categories spread over the whole listing (by their hash, the same sample every run of a seed). */
export async function sampleCategoryIds(query: RawQuery, mediaId: string, count: number): Promise<string[]> {
  return (await query('select id from categories where media_id = $1 order by md5(id::text) limit $2', [mediaId, count])).map((r) => r.id as string);
}
