import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { expect, inject } from 'vitest';
import { type App, buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { type Database, createDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { UUID } from './expect.js';
import { createTables } from './kits/tables.js';
import { type Client, createCategory } from './factories.js';
import { cloneNamePrefix, onConnection, withDatabase } from './global-setup.js';
import { recordServed } from './served.js';

export interface TestDatabase {
  database: Database;
  drop: () => Promise<void>;
}

/**
 * Databases this worker made and its apps have closed, each back in the template's state when
 * handed out again: on PGlite loading the template costs a file about 1.3 s, emptying the tables a
 * tenth of that; on PostgreSQL a clone and its drop cost the server about 0.25 s of CPU a file, and
 * its pool's first connections to a new database more, where emptying the tables costs 0.02 s.
 */
const idleDatabases: Database[] = [];

/**
 * Every table of the app's schema emptied, and the queue's schema (pg-boss makes it when an app
 * starts) gone: the migrated template's state. A table the last file never wrote to has no page
 * and is left alone; one with a few pages is emptied with DELETE (foreign keys not checked: every
 * table goes); a bigger one (a file that made 50,000 contents) is truncated, so that no later file
 * reads its dead rows. TRUNCATE of every table cost 0.1 to 0.25 s a file (a new file for each
 * table and index); this a fifth of that. No table has a sequence and no test file but the plan
 * tests runs ANALYZE or reads a plan (they take a fresh database, `createTestApp`'s `fresh`), so
 * emptied rows leave no counter or statistic behind that a later file could see.
 */
const RESET = `do $$
declare
  big text[] := '{}';
  t record;
begin
  set local session_replication_role = replica;
  for t in select format('%I.%I', schemaname, tablename) as name, pg_relation_size(format('%I.%I', schemaname, tablename)) as size
      from pg_tables where schemaname = 'public' loop
    if t.size > 65536 then big := big || t.name;
    elsif t.size > 0 then execute 'delete from ' || t.name;
    end if;
  end loop;
  if cardinality(big) > 0 then execute 'truncate ' || array_to_string(big, ', ') || ' cascade'; end if;
  drop schema if exists pgboss cascade;
end $$`;

/**
 * A database for a test app: one an earlier file of this worker used, emptied (else a fresh one:
 * a load of the PGlite template, a clone of the PostgreSQL one); `close()` hands it back for the
 * next file. A file that must really close its database (a database going away under the app) or
 * needs one no file has written to (query plans) uses `createTestDatabase`.
 */
export async function pooledTestDatabase(): Promise<TestDatabase> {
  let database: Database | undefined;
  while (!database && idleDatabases.length > 0) {
    const candidate = idleDatabases.pop()!;
    try {
      await candidate.db.execute(sql.raw(RESET));
      database = candidate;
    } catch {
      // Left unusable by its last file (closed, a transaction aborted): make a fresh one. A clone
      // left behind is dropped with the run's others at teardown.
      await candidate.close().catch(() => {});
    }
  }
  database ??= (await createTestDatabase()).database;
  const own = database;
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    idleDatabases.push(own);
  };
  return { database: { ...own, close: release }, drop: release };
}

/**
 * A database no file has written to: a load of the PGlite template or a clone of the PostgreSQL
 * one (a worker's first pooled database, a plan test's, one a file takes away under its app).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  const template = inject('templateDatabase');
  if (!url || !template) {
    // Loading the migrated dump skips the migrations, the main cost of a file on PGlite. A Blob
    // backed by the file, not one made from its bytes read into memory: PGlite reads it whole
    // (`arrayBuffer()`), which from a Blob of a 45 MB Buffer cost 0.6 s more CPU (chunk by chunk).
    const dump = inject('pgliteTemplate');
    const database = await createDatabase(dump ? { pgliteLoadDataDir: await openAsBlob(dump) } : {});
    if (!dump) await migrate(database);
    return { database, drop: async () => {} };
  }
  // The clone made ahead (else one made now), and the next one started: a clone takes 0.2 to 1 s,
  // mostly waiting on PostgreSQL, which the files running meanwhile hide. Since a worker reuses its
  // pooled clone, only the files that ask for a fresh one take these; the last is dropped at teardown.
  const name = await (spareClone ?? cloneTemplate(url, template));
  spareClone = cloneTemplate(url, template);
  spareClone.catch(() => {}); // awaited (and so reported) by the next file, if any
  const primary = withoutCommitWait(withDatabase(url, name));
  const replica = process.env.TEST_READ_REPLICA === '1' ? { readDatabaseUrl: asReadOnlyReplica(primary) } : {};
  const database = await createDatabase({ databaseUrl: primary, ...replica, poolSize: 5 });
  return {
    database,
    // Not awaited by the file: the next file needs a database, not this one gone. Global teardown
    // drops whatever is left (clones are named after the run's template).
    drop: async () => {
      void onConnection(url, `drop database if exists ${name} with (force)`).catch(() => {});
    },
  };
}

/**
 * A test database's connections commit without waiting for the WAL to reach the disk
 * (`synchronous_commit=off`, a setting of the session): a crash could lose the last commits of a
 * database that is thrown away anyway, while each write's wait for the flush left the cores idle
 * between a file's requests. The database crash test, whose subject is what a crash keeps, runs its
 * own cluster and service with the default.
 */
function withoutCommitWait(url: string): string {
  const u = new URL(url);
  u.searchParams.set('options', '-c synchronous_commit=off');
  return u.toString();
}

/**
 * The same database as a replica would serve it (TEST_READ_REPLICA=1, and the replica tests): a
 * pool of its own (`application_name` mps-read-replica) whose sessions refuse to write, as a hot
 * standby does, so that a write or a lock a `replica` read sends to it fails the test.
 */
export function asReadOnlyReplica(url: string): string {
  const u = new URL(url);
  u.searchParams.set('application_name', 'mps-read-replica');
  u.searchParams.set('options', [u.searchParams.get('options'), '-c default_transaction_read_only=on'].filter(Boolean).join(' '));
  return u.toString();
}

/** The next clone of the template, made ahead by the worker (its module state outlives a file). */
let spareClone: Promise<string> | undefined;

async function cloneTemplate(url: string, template: string): Promise<string> {
  const name = `${cloneNamePrefix(template)}${randomBytes(6).toString('hex')}`;
  await onConnection(url, `create database ${name} template ${template}`);
  return name;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  // Auth tests send hundreds of refused requests from one address; the throttle on failed
  // authentication has tests of its own that set a low limit.
  return { ...loadConfig({ LOG_LEVEL: 'silent', NODE_ENV: 'test' }), authFailureLimit: 1_000_000, oauthAllowInsecureProviders: true, ...overrides };
}

export interface TestContext {
  app: App;
  database: Database;
  close: () => Promise<void>;
}

/** The real app over a test database; call close() in afterAll. */
export async function createTestApp(
  overrides: Partial<Config> = {},
  extra: Omit<Parameters<typeof buildApp>[0], 'config' | 'database'> = {},
  options: { fresh?: boolean; tables?: readonly PgTable[] } = {},
): Promise<TestContext> {
  // fresh: a database no earlier file wrote to (the plan tests: no dead rows, no statistics).
  const { database, drop } = await (options.fresh ? createTestDatabase() : pooledTestDatabase());
  // tables: a fixture area's own, made before the app and dropped before the database is handed back.
  const own = await createTables(database.db, options.tables ?? []);
  const app = await buildApp({ config: testConfig(overrides), database, ...extra });
  recordServed(app, inject('servedAnswers'));
  await app.ready();
  return {
    app,
    database,
    close: async () => {
      await own.drop();
      await app.close();
      await drop();
    },
  };
}

/** `work`, or a failure naming `what` when it has not settled within `ms` (a request stuck behind a held connection). */
export const within = <T>(ms: number, work: Promise<T>, what: string): Promise<T> =>
  Promise.race([work, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms))]);

/** The SQL texts the drivers run during `work` (PGlite and node-postgres alike, the replica's too), in order. */
export async function statementsDuring(database: Database, work: () => Promise<unknown>): Promise<string[]> {
  type Driver = { query: (...args: unknown[]) => unknown };
  const drivers = [database.db, database.readDb].flatMap((db) => (db ? [(db as unknown as { $client: Driver }).$client] : []));
  const originals = drivers.map((driver) => driver.query);
  const texts: string[] = [];
  drivers.forEach((driver, i) => {
    driver.query = function (this: unknown, ...args: unknown[]) {
      const [first] = args;
      texts.push(typeof first === 'string' ? first : (first as { text: string }).text);
      return originals[i]!.apply(this, args);
    };
  });
  try {
    await work();
  } finally {
    drivers.forEach((driver, i) => (driver.query = originals[i]!));
  }
  return texts;
}

/** Connections the app's PostgreSQL pool has handed out right now (none on PGlite, which has no pool). */
export function checkedOutConnections(database: Database): number {
  const pool = (database.db as unknown as { $client: { totalCount?: number; idleCount?: number } }).$client;
  return typeof pool.totalCount === 'number' ? pool.totalCount - (pool.idleCount ?? 0) : 0;
}

/**
 * While something waits (`during`: an upload's body on its way, its bytes being stored), a write
 * and a read still answer within 5 s, and no pooled connection is held meanwhile.
 */
export async function expectOthersProceed(ctx: TestContext, api: Client, during: string): Promise<void> {
  const category = await within(5_000, createCategory(api), `a write while ${during}`);
  expect(category.id).toMatch(UUID);
  const listed = await within(5_000, api.get('/core/v2/categories'), `a read while ${during}`);
  expect(listed.json().data.map((c: { id: string }) => c.id)).toContain(category.id);
  expect(checkedOutConnections(ctx.database)).toBe(0);
}
