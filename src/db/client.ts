import { mkdirSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { Logger } from 'pino';
import { SEARCH_SESSION_SETTINGS } from '../shared/search.js';
import { lockDataDir } from './data-dir-lock.js';

/** The database as the modules see it: the same API on PostgreSQL and PGlite. */
export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = PgTransaction<PgQueryResultHKT>;
/** Repositories take either the database or a transaction that a service opened. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  kind: 'postgres' | 'pglite';
  /** The pool behind `db` on PostgreSQL, for the benchmark floor and health checks. */
  pool?: pg.Pool;
  /**
   * DATABASE_READ_URL's handle: what the contexts of the reads the Reader and Public trees mark
   * `replica` run on (`contextOf`). Only statements given this handle go there: writes,
   * transactions and everything outside such a read's context use `db`.
   */
  readDb?: Db;
  /** The pool behind `readDb`, for the tests that count which pool a request took. */
  readPool?: pg.Pool;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** A replica of `databaseUrl` for the Reader and Public trees' reads (PostgreSQL only). */
  readDatabaseUrl?: string | undefined;
  /** Directory for PGlite's files; omitted means in memory. */
  dataDir?: string | undefined;
  poolSize?: number;
  logger?: Logger;
  /** PGlite only: start from a dumped data directory (the tests' migrated template). */
  pgliteLoadDataDir?: Blob | File;
  /**
   * PGlite only: a process that runs a few statements and exits (an operator CLI call). Its
   * buffer cache is 16 MB instead of PostgreSQL's 128 MB: PGlite zero-fills the whole shared
   * memory when it starts, a third of its start-up CPU, for pages such a call never reads.
   * A start-up setting only: the data directory is the same either way.
   */
  shortLived?: boolean;
}

/** What a short-lived process's PGlite starts with on top of PGlite's own parameters (`shortLived`). */
const SHORT_LIVED_SETTINGS = ['-c', 'shared_buffers=16MB'];

/**
 * The extensions the migrations create, loaded into every PGlite instance: search's trigram
 * matching, and btree_gin so that the search indexes lead with the media.
 */
export const pgliteExtensions = { pg_trgm, btree_gin };

export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    // Like PGlite's below, pg's code loads only where it runs: a CLI call on PGlite does without it.
    const [{ default: driver }, { drizzle: drizzlePg }] = await Promise.all([import('pg'), import('drizzle-orm/node-postgres')]);
    const pool = createPool(driver, options.databaseUrl, options.poolSize ?? 10, options.logger);
    const readPool = options.readDatabaseUrl ? createPool(driver, options.readDatabaseUrl, options.poolSize ?? 10, options.logger) : undefined;
    const db = drizzlePg(pool) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      pool,
      ...(readPool && { readDb: drizzlePg(readPool) as unknown as Db, readPool }),
      ping: async () => {
        await pool.query('select 1');
      },
      close: async () => {
        await closePool(pool, options.logger);
        if (readPool) await closePool(readPool, options.logger);
      },
    };
  }

  // The embedded database's code (a megabyte of JavaScript) loads only where it runs: PostgreSQL
  // deployments, and each CLI call on one, do without it.
  const [pglite, { drizzle: drizzlePglite }] = await Promise.all([import('@electric-sql/pglite'), import('drizzle-orm/pglite')]);
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // One process per data directory: a second one refuses here, before PGlite touches a file.
  const lock = options.dataDir ? lockDataDir(options.dataDir) : undefined;
  let client: PGlite;
  try {
    client = new pglite.PGlite({
      extensions: pgliteExtensions,
      ...(options.shortLived && { startParams: [...pglite.PGlite.defaultStartParams, ...SHORT_LIVED_SETTINGS] }),
      ...(options.dataDir && { dataDir: options.dataDir }),
      ...(options.pgliteLoadDataDir && { loadDataDir: options.pgliteLoadDataDir }),
    });
    await client.waitReady;
    for (const [name, value] of Object.entries(SEARCH_SESSION_SETTINGS)) await client.query('select set_config($1, $2, false)', [name, value]);
  } catch (err) {
    lock?.release();
    throw err;
  }
  const db = drizzlePglite(client) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await client.query('select 1');
    },
    close: async () => {
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}

/**
 * The settings of every pool connection: search's, and no JIT compilation. PostgreSQL compiles
 * a statement whose estimated cost passes jit_above_cost; a request's statements are short, and
 * at a million contents a search's (or a list's generic plan) paid about 100 ms of compilation
 * on each execution for a few milliseconds of work. PGlite is built without JIT.
 */
export const POOL_SESSION_SETTINGS: Record<string, string> = { ...SEARCH_SESSION_SETTINGS, jit: 'off' };

/**
 * The URL with the session settings every connection starts with (POOL_SESSION_SETTINGS) added
 * to its `options`: options in the URL would replace those given beside it.
 */
function withSessionSettings(connectionString: string): string {
  const settings = Object.entries(POOL_SESSION_SETTINGS).map(([name, value]) => `-c ${name}=${value}`);
  try {
    const url = new URL(connectionString);
    url.searchParams.set('options', [url.searchParams.get('options'), ...settings].filter(Boolean).join(' '));
    return url.toString();
  } catch {
    return connectionString;
  }
}

/** A checked-out client whose connection died is released by force after this long. */
const DEAD_CLIENT_RELEASE_MS = 1_000;

/**
 * A pool that survives the server going away. pg emits 'error' on a client whose connection
 * dies; the pool listens on idle clients only, and an unheard 'error' on a checked-out one
 * (inside a transaction, say) is an uncaught exception that ends the process. The query in
 * flight on it fails on its own, and the error handler answers that with a 503.
 */
function createPool(driver: typeof pg, connectionString: string, max: number, logger: Logger | undefined): pg.Pool {
  const pool = new driver.Pool({ connectionString: withSessionSettings(connectionString), max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 5_000 });
  pool.on('error', (err) => logger?.warn({ err: { message: err.message } }, 'idle database client failed'));
  const checkedOut = new Set<pg.PoolClient>();
  pool.on('acquire', (client) => checkedOut.add(client));
  pool.on('release', (_err, client) => checkedOut.delete(client as pg.PoolClient));
  pool.on('connect', (client) => {
    client.on('error', (err) => {
      const held = client as pg.PoolClient;
      if (!checkedOut.has(held)) return; // idle: the pool's own listener drops it
      logger?.warn({ err: { message: err.message } }, 'database connection lost during a query');
      // Drizzle sends BEGIN before its try/finally, so a connection lost right after checkout
      // is never released: a dead client would hold a pool slot forever. Release it once,
      // whoever asks first.
      const release = held.release.bind(held);
      let released = false;
      held.release = (reason?: Error | boolean) => {
        if (released) return;
        released = true;
        release(reason ?? err);
      };
      setTimeout(() => held.release(err), DEAD_CLIENT_RELEASE_MS).unref();
    });
  });
  return pool;
}

/**
 * Closes the pool once the queries still running have finished: a request whose client hung
 * up keeps running after its connection closed, and must not find the pool gone.
 */
async function closePool(pool: pg.Pool, logger: Logger | undefined, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const busy = () => pool.totalCount - pool.idleCount > 0 || pool.waitingCount > 0;
  while (busy() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  if (busy()) logger?.warn({ busy: pool.totalCount - pool.idleCount }, 'closing the database pool with queries still running');
  await pool.end();
  logger?.info('database pool closed');
}
