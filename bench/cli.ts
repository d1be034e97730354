/**
 * The operator CLI's wall time, as an operator meets it: the package's bin spawned (in a checkout,
 * through tsx) until it exits, five times per command, the median reported. On an embedded
 * database in a temporary directory, and on PostgreSQL when BENCH_DATABASE_URL names a server
 * (a database of its own is created there and dropped after).
 *
 *   npx tsx bench/cli.ts            # BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres for PostgreSQL too
 *
 * On PGlite it also times the floor under every call, in the same turns: PGlite alone opened on the
 * same directory with one query (bench/pglite-floor.js). BENCH_RUNS sets the runs per command (5).
 *
 * BENCH_CLI_BIN names another checkout's bin (the same commands before a change); a command that
 * checkout does not have is timed all the same (its refusal).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onScratchDatabase } from './database.js';

const BIN = process.env.BENCH_CLI_BIN ?? fileURLToPath(new URL('../bin/media-publishing-service.js', import.meta.url));
const FLOOR = fileURLToPath(new URL('./pglite-floor.js', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 5);



/**
 * Runs the bin once under /usr/bin/time: its wall time and CPU time (user and system, its own and
 * its children's) in ms, and its stdout. A failed command stops the bench. The CPU time says more
 * than the wall time on a machine shared with other work.
 */
function run(args: string[], env: Record<string, string>, allowFailure = false, script = BIN): { ms: number; cpuMs: number; stdout: string } {
  const started = process.hrtime.bigint();
  const res = spawnSync('/usr/bin/time', ['-o', TIMES, '-f', '%U %S', process.execPath, script, ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.status !== 0 && !allowFailure) throw new Error(`${args.join(' ')}: exit ${res.status}\n${res.stderr}`);
  const [user, system] = readFileSync(TIMES, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
  return { ms, cpuMs: (user! + system!) * 1000, stdout: res.stdout };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measure(label: string, env: Record<string, string>) {
  run(['db', 'migrate'], env);
  const media = /^created media ([0-9a-f-]{36})/m.exec(run(['media', 'create', '--name', 'Bench', '--locales', 'en'], env).stdout)?.[1];
  if (!media) throw new Error('media create printed no media id');
  const commands: Array<[string, string[], boolean?, (() => ReturnType<typeof run>)?]> = [
    ['--help', ['--help']],
    ['--version', ['--version'], true],
    ['media list', ['media', 'list']],
    ['key list', ['key', 'list', '--media', media], true],
    ['key create', ['key', 'create', '--media', media, '--name', 'bench']],
  ];
  console.log(`\n${label}: median of ${RUNS} runs, ms: wall (each run's), CPU`);
  // On PGlite, the floor under every command in the same turns: PGlite itself opened on the same
  // directory, one query, closed (bench/pglite-floor.js), with PostgreSQL's default buffer cache
  // and with the CLI's (src/db/client.ts, shortLived).
  if (env.DATA_DIR) {
    const floor = (sharedBuffers?: string) => () => run([join(env.DATA_DIR!, 'pglite')], { ...env, ...(sharedBuffers && { PGLITE_SHARED_BUFFERS: sharedBuffers }) }, false, FLOOR);
    commands.unshift(['PGlite alone, 128MB', [], false, floor()], ['PGlite alone, 16MB', [], false, floor('16MB')]);
  }
  for (const [name, args, allowFailure, runOnce] of commands) {
    const runs = Array.from({ length: RUNS }, () => (runOnce ? runOnce() : run(args, env, allowFailure)));
    const wall = runs.map((r) => Math.round(r.ms));
    const cpu = median(runs.map((r) => r.cpuMs));
    console.log(`${name.padEnd(20)} ${String(median(wall)).padStart(6)} (${wall.join(', ')})  CPU ${Math.round(cpu)}`);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'mps-bench-cli-'));
const TIMES = join(dir, 'times');
try {
  await measure('PGlite', { DATA_DIR: join(dir, 'data'), DATABASE_URL: '' });
  const server = process.env.BENCH_DATABASE_URL;
  if (server) await onScratchDatabase(server, `mps_bench_cli_${process.pid}`, (url) => measure('PostgreSQL', { DATABASE_URL: url }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
