import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDatabase, pgliteExtensions } from '../../src/db/client.js';
import { migrate, migrationsFolder } from '../../src/db/migrate.js';
import { embeddedProcessTests } from './processes.js';
import { buildService } from './service-build.js';
import { contractBreaches, unservedAnswers } from './served.js';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string | null;
    /** PGlite: the file holding the migrated data directory that each test file loads. */
    pgliteTemplate: string | null;
    /**
     * A migrated PGlite data directory on disk (`<dir>/pglite`) where the service's processes run on
     * PGlite (`embeddedProcessTests`): a process test copies it (`migratedDataDir`) instead of paying
     * initdb and the migrations (about 10 s of CPU a start). Null in a PostgreSQL run without them.
     */
    pgliteDataDir: string | null;
    /**
     * A PGlite cluster as initdb leaves it, no migration applied, dumped to a file (`unmigratedDataDir`
     * loads it): the start-up test's first start applies every migration to it without paying initdb
     * (about 8 s of CPU). Null where `pgliteDataDir` is.
     */
    pgliteUnmigrated: string | null;
    /** The service's `main.js`, transpiled once per run for the tests that start it as a process (`test/setup/service-build.ts`). */
    serviceMain: string;
    /** The directory where test apps note the JSON success answers they made (`test/setup/served.ts`). */
    servedAnswers: string;
  }
}

/**
 * Migrate once per run, not once per test file. On PostgreSQL (TEST_DATABASE_URL) a template
 * database that every file clones; on PGlite a dump of a migrated in-memory instance that
 * every file loads into its own instance.
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  const dir = await mkdtemp(join(tmpdir(), 'mps-pglite-template-'));
  const servedDir = join(dir, 'served');
  project.provide('servedAnswers', servedDir);
  const service = buildService(join(dir, 'service')).then((main) => project.provide('serviceMain', main));
  const teardown = async () => {
    checkServed(project, servedDir);
    await rm(dir, { recursive: true, force: true });
  };
  if (!url) {
    project.provide('templateDatabase', null);
    project.provide('pgliteTemplate', await setupPgliteTemplate(project, dir));
    await service;
    return teardown;
  }
  project.provide('pgliteTemplate', null);
  const template = `mps_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await dropLeftovers(admin);
  const migrated = async () => {
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    const database = await createDatabase({ databaseUrl: withDatabase(url, template), poolSize: 1 });
    await migrate(database);
    await database.close();
  };
  // The process tests start services on PGlite data directories in this run too, if asked: else
  // making that directory (about 8 s of CPU, before any test file starts) is for nothing.
  const noPglite = () => {
    project.provide('pgliteDataDir', null);
    project.provide('pgliteUnmigrated', null);
  };
  await Promise.all([migrated(), embeddedProcessTests ? setupPgliteTemplate(project, dir) : noPglite(), service]);
  project.provide('templateDatabase', template);

  return async () => {
    await dropClones(admin, template);
    await admin.query(`drop database if exists ${template} with (force)`);
    await admin.end();
    await teardown();
  };
}

/**
 * After any run: no answer broke the document (`contractBreaches`). After a whole run (no file or
 * test name filter, no shard, not watching): every JSON success
 * answer the OpenAPI document declares was made by a test, or the run fails naming those that were not.
 */
function checkServed(project: TestProject, dir: string): void {
  const breaches = contractBreaches(dir);
  if (breaches.length > 0) {
    console.error(`${breaches.length} answers broke the OpenAPI document they were served with (test/setup/contract.ts):\n  ${breaches.join('\n  ')}`);
    process.exitCode = 1;
  }
  const { vitest } = project;
  const { config } = vitest;
  // The file filters of the command line (`vitest run test/http`): not in Vitest's typed API.
  const fileFilters = (vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  if (fileFilters?.length || config.testNamePattern || config.shard || config.changed || config.related?.length || config.watch) return;
  const missing = unservedAnswers(dir, join(process.cwd(), 'clients/typescript/openapi.json'));
  if (missing.length === 0) return;
  console.error(
    `${missing.length} JSON success answers of the OpenAPI document were made by no test, so no test checked their bodies against their schemas (test/setup/served.ts):\n  ${missing.join('\n  ')}`,
  );
  process.exitCode = 1;
}

/**
 * The migrated PGlite on disk (provided as `pgliteDataDir`, process tests copy it) and dumped: the
 * dump's file is returned, for the PGlite runs whose test files load it into their instances.
 */
async function setupPgliteTemplate(project: TestProject, dir: string): Promise<string> {
  const file = join(dir, 'template.tar');
  const unmigrated = join(dir, 'unmigrated.tar');
  const pglite = new PGlite({ extensions: pgliteExtensions });
  let dump: Blob | File;
  try {
    await pglite.waitReady;
    await writeFile(unmigrated, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
    await migratePglite(drizzle(pglite), { migrationsFolder });
    dump = await pglite.dumpDataDir('none');
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await pglite.close();
  }
  const dataDir = join(dir, 'data');
  await mkdir(dataDir);
  const onDisk = new PGlite(join(dataDir, 'pglite'), { extensions: pgliteExtensions, loadDataDir: dump });
  await onDisk.waitReady;
  await onDisk.close();
  project.provide('pgliteDataDir', dataDir);
  project.provide('pgliteUnmigrated', unmigrated);
  return file;
}

/** The names of a run's clones of its template (`mps_template_<pid>` → `mps_t_<pid>_`): teardown finds them by it. */
export const cloneNamePrefix = (template: string) => template.replace(/^mps_template_/, 'mps_t_') + '_';

/**
 * Drops the run's clones the test files left: the spare each worker made ahead for a next file,
 * and those whose files dropped them without waiting. A clone still being made is waited for;
 * what a killed run leaves, the next run's start drops (`dropLeftovers`).
 */
async function dropClones(admin: pg.Client, template: string): Promise<void> {
  const prefix = cloneNamePrefix(template);
  // Done after two looks 250 ms apart find neither a clone nor one being made: a worker's last
  // spare can still be on its way to the server when the first look is taken.
  let quiet = 0;
  for (const deadline = Date.now() + 30_000; Date.now() < deadline && quiet < 2; ) {
    const { rows } = await admin.query<{ datname: string }>(`select datname from pg_database where starts_with(datname, $1)`, [prefix]);
    for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
    const making = await admin.query(`select 1 from pg_stat_activity where query ilike $1`, [`create database ${prefix}%`]);
    quiet = rows.length === 0 && making.rowCount === 0 ? quiet + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * The templates and clones of earlier runs whose process is gone (a run killed, or a worker's
 * spare clone that outlived its run's teardown): their names carry that process's pid.
 */
async function dropLeftovers(admin: pg.Client): Promise<void> {
  const { rows } = await admin.query<{ datname: string; pid: string }>(
    `select datname, substring(datname from '^mps_(?:template|t)_([0-9]+)') as pid from pg_database where datname ~ '^mps_(template|t)_[0-9]+'`,
  );
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'EPERM';
    }
  };
  for (const { datname, pid } of rows) {
    if (!alive(Number(pid))) await admin.query(`drop database if exists ${datname} with (force)`);
  }
}

/**
 * One statement on a connection of its own to `url`, closed afterwards: create or drop a
 * database, count or end another's sessions, read a few rows of a database a service owns.
 */
export async function onConnection<R extends pg.QueryResultRow = pg.QueryResultRow>(url: string, text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query<R>(text, values);
  } finally {
    await client.end();
  }
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
