import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Server, createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../src/db/migrate.js';
import { onConnection, withDatabase } from './setup/global-setup.js';
import { embeddedProcessTests, freePort, killSpawned, migratedDataDir, serverArgs, spawnNode, unmigratedDataDir, waitForAnswer } from './setup/processes.js';

// The server's start as a user meets it: `.env` in the working directory, the port checked before
// anything is made, each phase logged, one process per embedded data directory. Every server runs
// in a process group of its own and is killed after each test.
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const MIGRATIONS = (JSON.parse(readFileSync(join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length;

const root = mkdtempSync(join(tmpdir(), 'mps-startup-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = (name: string) => join(root, `${name}-${n++}`);

const blockers: Server[] = [];
afterEach(async () => {
  killSpawned();
  await Promise.all(blockers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** `npm start`: the sources through tsx, as the README's quick start runs them. */
const start = (cwd: string, env: Record<string, string>) => spawnNode(['--import', TSX, MAIN], { cwd, env });
/**
 * The same server from the sources bundled once per run (`serverArgs`), as the other process
 * tests start it: for the starts whose subject is not the loader but what the server does on a data
 * directory already there (a second process refused, a warm restart, a stale lock), about 1.9 s of
 * CPU less each than tsx transforming every module again.
 */
const startBuilt = (cwd: string, env: Record<string, string>) => spawnNode(serverArgs(), { cwd, env });

const stop = async (proc: ReturnType<typeof spawnNode>) => {
  proc.child.kill('SIGTERM');
  return proc.exited;
};

describe.runIf(embeddedProcessTests)('starting the server on the embedded database', () => {
  it('reports a busy port first, in one line, before it opens or creates anything', async () => {
    const blocker = createServer();
    blockers.push(blocker);
    const port = await new Promise<number>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port)));
    const dataDir = freshDir('busy');
    const proc = start(root, { PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    expect(await proc.exited).toBe(1);
    expect(proc.stderr().trim().split('\n')).toEqual([`port ${port} on 127.0.0.1 is already in use; stop what listens there or set PORT`]);
    expect(existsSync(dataDir)).toBe(false);
  }, 60_000);

  it('reads .env (the environment wins), logs each phase, and refuses a second process on its data directory', async () => {
    const cwd = freshDir('cwd');
    // A cluster no migration has touched: the first start applies every one (a directory that does
    // not exist yet, where PGlite also runs initdb, is the CLI's `db migrate` test's).
    const dataDir = await unmigratedDataDir(freshDir('data'));
    const port = await freePort();
    const key = `env-file-key-${randomBytes(16).toString('hex')}`;
    mkdirSync(cwd, { recursive: true });
    writeFileSync(join(cwd, '.env'), `PORT=${port}\nBOOTSTRAP_API_KEY=${key}\nLOG_LEVEL=silent\nDATA_DIR=${join(root, 'not-this-one')}\n`);

    const first = start(cwd, { LOG_LEVEL: 'info', DATA_DIR: dataDir });
    await waitForAnswer(first, port, '/health');
    const media = await fetch(`http://127.0.0.1:${port}/core/v2/media`, { headers: { 'x-api-key': key } });
    expect(media.status).toBe(200);
    expect(existsSync(join(root, 'not-this-one'))).toBe(false);

    const phases = first.logs().filter((l) => ['starting', 'database open', `migrations applied: ${MIGRATIONS}`, 'listening'].includes(l.msg));
    expect(phases.map((l) => l.msg)).toEqual(['starting', 'database open', `migrations applied: ${MIGRATIONS}`, 'listening']);
    expect(phases[2]!.applied).toBe(MIGRATIONS);
    const times = phases.map((l) => l.ms as number);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(readFileSync(`${join(dataDir, 'pglite')}.lock`, 'utf8')).toContain(`"pid":${first.child.pid}`);

    // The same data directory, another port: refused in one line naming the first process.
    const second = startBuilt(cwd, { LOG_LEVEL: 'silent', DATA_DIR: dataDir, PORT: String(await freePort()) });
    expect(await second.exited).toBe(1);
    expect(second.stderr().trim().split('\n')).toEqual([
      `start-up failed: the data directory ${join(dataDir, 'pglite')} is in use by process ${first.child.pid} (lock file ${join(dataDir, 'pglite')}.lock); stop it, or set DATA_DIR to another directory`,
    ]);
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);

    expect(await stop(first)).toBe(0);
    expect(existsSync(`${join(dataDir, 'pglite')}.lock`)).toBe(false);

    // Warm: nothing left to migrate.
    const again = startBuilt(cwd, { LOG_LEVEL: 'info', DATA_DIR: dataDir });
    await waitForAnswer(again, port, '/health');
    expect(again.logs().find((l) => l.msg.startsWith('migrations applied'))).toMatchObject({ msg: 'migrations applied: 0', applied: 0 });
    expect(await stop(again)).toBe(0);
  }, 240_000);

  it('takes over a lock left by a process that is gone', async () => {
    const dataDir = freshDir('stale');
    mkdirSync(dataDir, { recursive: true });
    migratedDataDir(dataDir);
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(`${join(dataDir, 'pglite')}.lock`, JSON.stringify({ pid: dead, host: hostname() }));
    const port = await freePort();
    const proc = startBuilt(root, { PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    await waitForAnswer(proc, port, '/health');
    expect(JSON.parse(readFileSync(`${join(dataDir, 'pglite')}.lock`, 'utf8')).pid).toBe(proc.child.pid);
    expect(await stop(proc)).toBe(0);
  }, 120_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('starting the server on a PostgreSQL database that does not exist', () => {
  it('fails with one line saying to create it', async () => {
    const name = `mps_missing_${process.pid}_${Date.now()}`;
    await onConnection(process.env.TEST_DATABASE_URL!, `drop database if exists ${name}`);
    const proc = start(root, { PORT: String(await freePort()), DATABASE_URL: withDatabase(process.env.TEST_DATABASE_URL!, name), LOG_LEVEL: 'silent' });
    expect(await proc.exited).toBe(1);
    const lines = proc.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^start-up failed: the database "${name}" does not exist on [^;]+; create it first`));
  }, 60_000);
});
