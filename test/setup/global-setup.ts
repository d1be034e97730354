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

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string | null;
    /** PGlite: the file holding the migrated data directory that each test file loads. */
    pgliteTemplate: string | null;
    /**
     * A migrated PGlite data directory on disk (`<dir>/pglite`), in every run: a process test copies
     * it (`migratedDataDir`) instead of paying initdb and the migrations (about 10 s of CPU a start).
     */
    pgliteDataDir: string;
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
  const removeDir = () => rm(dir, { recursive: true, force: true });
  if (!url) {
    project.provide('templateDatabase', null);
    project.provide('pgliteTemplate', await setupPgliteTemplate(project, dir));
    return removeDir;
  }
  project.provide('pgliteTemplate', null);
  const template = `mps_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const migrated = async () => {
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    const database = await createDatabase({ databaseUrl: withDatabase(url, template), poolSize: 1 });
    await migrate(database);
    await database.close();
  };
  // The process tests start services on PGlite data directories in this run too.
  await Promise.all([migrated(), setupPgliteTemplate(project, dir)]);
  project.provide('templateDatabase', template);

  return async () => {
    await admin.query(`drop database if exists ${template} with (force)`);
    await admin.end();
    await removeDir();
  };
}

/**
 * The migrated PGlite on disk (provided as `pgliteDataDir`, process tests copy it) and dumped: the
 * dump's file is returned, for the PGlite runs whose test files load it into their instances.
 */
async function setupPgliteTemplate(project: TestProject, dir: string): Promise<string> {
  const file = join(dir, 'template.tar');
  const pglite = new PGlite({ extensions: pgliteExtensions });
  let dump: Blob | File;
  try {
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
  return file;
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
