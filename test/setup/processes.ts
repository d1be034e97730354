import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, openAsBlob } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { pgliteExtensions } from '../../src/db/client.js';

/** What global setup made for the process tests on PGlite; a PostgreSQL run without them made nothing. */
function pgliteProvided(name: 'pgliteDataDir' | 'pgliteUnmigrated'): string {
  const path = inject(name);
  if (!path) throw new Error('this PostgreSQL run made no PGlite data directory: the test needs embeddedProcessTests (TEST_EMBEDDED_PROCESSES=1)');
  return path;
}

/**
 * `dataDir` holding a migrated, empty PGlite (a copy of the run's, made once in global setup): a
 * service started on it opens its database at once, where a fresh directory costs initdb and every
 * migration (about 10 s of CPU). The tests of a first start use a fresh directory.
 */
export function migratedDataDir(dataDir: string): string {
  cpSync(join(pgliteProvided('pgliteDataDir'), 'pglite'), join(dataDir, 'pglite'), { recursive: true });
  return dataDir;
}

/**
 * `dataDir` holding a PGlite cluster as initdb leaves it, with no migration applied (the run's,
 * dumped once in global setup): a first start's migrations, without initdb's 8 s of CPU. The
 * CLI's `db migrate` test keeps a directory that does not exist yet, where PGlite runs initdb.
 */
export async function unmigratedDataDir(dataDir: string): Promise<string> {
  const dump = pgliteProvided('pgliteUnmigrated');
  mkdirSync(dataDir, { recursive: true });
  const pglite = new PGlite(join(dataDir, 'pglite'), { extensions: pgliteExtensions, loadDataDir: await openAsBlob(dump) });
  await pglite.waitReady;
  await pglite.close();
  return dataDir;
}

/**
 * Whether this run starts the service's processes on the embedded database (PGlite data
 * directories): the PGlite run does. A PostgreSQL run (`TEST_DATABASE_URL`) skips those tests:
 * they never touch PostgreSQL, so running them again there only repeated the PGlite run (about 100
 * s of its workers' time), unless `TEST_EMBEDDED_PROCESSES=1` asks for them, as CI's Node 24 run
 * does, which checks the runtime (PGlite's WebAssembly included) on its own.
 */
export const embeddedProcessTests = !process.env.TEST_DATABASE_URL || process.env.TEST_EMBEDDED_PROCESSES === '1';

/**
 * The node arguments that start the server (src/main.ts) as the image does, from JavaScript: the
 * sources transpiled once per run (`test/setup/service-build.ts`), not through tsx at each start.
 */
export const serverArgs = (): string[] => [inject('serviceMain')];

/** A port nothing listens on right now (the kernel's choice, released at once). */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** A Node process of the service (the server, the CLI), in a process group of its own. */
export interface Spawned {
  child: ChildProcess;
  /** The exit code once the process has exited and its output is read in full. */
  exited: Promise<number | null>;
  stdout: () => string;
  stderr: () => string;
  /** The JSON log lines written to stdout so far. */
  logs: () => Array<Record<string, unknown> & { msg: string }>;
  /** SIGKILL to the whole group; safe to call twice. */
  kill: () => void;
}

const running = new Set<Spawned>();

/**
 * Kills every process spawned and still running, with its group. A file that spawns calls
 * `afterEach(killSpawned)` itself (this module is loaded once per worker, not once per file).
 */
export function killSpawned(): void {
  for (const proc of running) proc.kill();
  running.clear();
}

/**
 * Runs `node <args>` with only `env` (plus PATH and HOME) in a process group of its own, so that
 * `killSpawned` takes its children too: whatever a test does, nothing outlives it.
 */
export function spawnNode(args: string[], options: { env: Record<string, string>; cwd?: string }): Spawned {
  const child = spawn(process.execPath, args, {
    ...(options.cwd && { cwd: options.cwd }),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += String(d)));
  child.stderr!.on('data', (d) => (stderr += String(d)));
  const kill = () => {
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  };
  const proc: Spawned = {
    child,
    exited: new Promise((resolve) =>
      child.on('close', (code) => {
        running.delete(proc);
        resolve(code);
      }),
    ),
    stdout: () => stdout,
    stderr: () => stderr,
    logs: () =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown> & { msg: string }),
    kill,
  };
  running.add(proc);
  return proc;
}

/**
 * Waits until the process answers `path` (`/health`, `/ready`) on `port` with a 2xx, polling every
 * 100 ms. A first start on a fresh data directory (initdb, every migration, transpiling src/) took
 * up to 60 s on a loaded 2-core CI machine, hence the default. On failure the error says whether the
 * process exited and shows the phases it logged and its stderr, so that a slow start and a stuck one
 * can be told apart from CI's output alone.
 */
export async function waitForAnswer(
  proc: Pick<Spawned, 'child' | 'logs' | 'stderr'>,
  port: number,
  path: string,
  timeoutMs = 90_000,
): Promise<void> {
  const started = Date.now();
  for (const deadline = started + timeoutMs; Date.now() < deadline && proc.child.exitCode === null; ) {
    const ok = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(5_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  let phases: string[];
  try {
    phases = proc.logs().map((l) => `${String(l.ms ?? '?')} ms ${l.msg}`);
  } catch {
    phases = ['(a log line cut in the middle)'];
  }
  throw new Error(
    `no 2xx from ${path} on port ${port} after ${Date.now() - started} ms (exit code ${proc.child.exitCode}); ` +
      `logged: [${phases.slice(-10).join('; ')}]; stderr: ${proc.stderr().trim().slice(-2_000) || '(none)'}`,
  );
}
