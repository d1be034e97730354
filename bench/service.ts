/**
 * The service's memory: the server started as a process of its own on the bench's PostgreSQL
 * database, as the image runs it (`node dist/main.js`, when `npm run build` has made dist/) and
 * as `npm start` runs it (the sources through tsx, which holds every module's transpiled code and
 * source map besides), put under the category scenarios, its resident set read from /proc. The bench process
 * itself also holds tsx, the load scenarios' seeding, every floor and the harness: its RSS says
 * little about the service's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadResult, LoadScenario } from './load.js';
import { type Profiler, remoteProfiler, withProfileHook } from './profile.js';
import { freePort, stopGroup } from './startup.js';

/** Issue 2: the service's RSS under the bench's load stays under 250 MB. */
export const TARGET_RSS_MB = 250;
const READY_WITHIN_MS = 60_000;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface ServiceMemory {
  command: string;
  /** Resident set after start-up, at the end of the load, and its peak (VmHWM), in MB. */
  startedMb: number;
  endMb: number;
  peakMb: number;
  /** Per scenario: requests answered, and how many were not 2xx or failed. */
  runs: Array<{ name: string; total: number; failed: number }>;
}

/** Requests of a scenario's load runs, and how many were not 2xx or failed. */
export const answered = (name: string, results: LoadResult[]): ServiceMemory['runs'][number] => ({
  name,
  total: results.reduce((n, r) => n + r.total, 0),
  failed: results.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0),
});

/** VmRSS and VmHWM of a process, in MB (Linux). */
export function residentMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** The service's commands to measure: the image's (if built) and `npm start`'s. */
export const serviceCommands = (): string[][] => [
  ...(existsSync(join(ROOT, 'dist/main.js')) ? [['dist/main.js']] : []),
  ['--import', 'tsx', 'src/main.ts'],
];

/** A service process of its own on the bench's database, answering on `url` once ready. */
export interface ServiceProcess {
  url: string;
  pid: number;
  /** With `profiled`: starts and stops its CPU profile (bench/profile.ts). */
  profiler?: Profiler;
  stop: () => Promise<void>;
}

/**
 * Starts the service as `node <args>` (`serviceCommands()`'s) on `databaseUrl`, as a process
 * group of its own, and waits for `/ready`. The rate limits are raised out of the way (their
 * plugin still runs on every request), as in the bench process's app.
 */
export async function startServiceProcess(options: {
  args: string[];
  databaseUrl: string;
  /** Registers the process for the bench's clean-up (its time cap, Ctrl-C). */
  onStart: (stop: () => Promise<void>) => void;
  /** BENCH_PROFILE: preload the profile hook and open the channel it listens on. */
  profiled?: boolean;
  /** The checkout to run (its sources, migrations, node_modules); this one by default. */
  root?: string;
}): Promise<ServiceProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, options.profiled ? withProfileHook(options.args) : options.args, {
    cwd: options.root ?? ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      DATABASE_URL: options.databaseUrl,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      // Node's options as the floor's process gets them (it inherits the bench's environment): a
      // runtime flag tried on the bench (`--max-semi-space-size`) applies to both sides alike.
      ...(process.env.NODE_OPTIONS && { NODE_OPTIONS: process.env.NODE_OPTIONS }),
      RATE_LIMIT_BACKOFFICE: '10000000',
      RATE_LIMIT_READER: '10000000',
      RATE_LIMIT_ANONYMOUS: '10000000',
      // The preloaded hook profiles as the bench's own profiler does: CPU, or allocations (BENCH_PROFILE_HEAP).
      ...(options.profiled && process.env.BENCH_PROFILE_HEAP && { BENCH_PROFILE_HEAP: process.env.BENCH_PROFILE_HEAP }),
    },
    stdio: options.profiled ? ['ignore', 'ignore', 'pipe', 'ipc'] : ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= stopGroup(child).then(() => undefined));
  options.onStart(stop);
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr = (stderr + String(d)).slice(-2000)));
  const url = `http://127.0.0.1:${port}`;
  try {
    for (const started = Date.now(); ; ) {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${stderr}`);
      if (Date.now() - started > READY_WITHIN_MS) throw new Error(`the service was not ready within ${READY_WITHIN_MS / 1000} s:\n${stderr}`);
      if (await fetch(`${url}/ready`).then((r) => r.ok, () => false)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, pid: child.pid!, stop, ...(options.profiled && { profiler: remoteProfiler(child) }) };
}

export async function measureServiceMemory(options: {
  /** Node's arguments: `serviceCommands()`'s. */
  args: string[];
  databaseUrl: string;
  /** The scenarios to run against the service: their paths and headers, with the service's URL put in. */
  scenarios: Array<{ name: string; scenario: LoadScenario }>;
  run: (scenario: LoadScenario) => Promise<LoadResult>;
  /** Registers the process for the bench's clean-up (its time cap, Ctrl-C). */
  onStart: (stop: () => Promise<void>) => void;
}): Promise<ServiceMemory> {
  const service = await startServiceProcess(options);
  try {
    const startedMb = residentMb(service.pid).rss;
    const runs: ServiceMemory['runs'] = [];
    for (const { name, scenario } of options.scenarios) {
      runs.push(answered(name, [await options.run({ ...scenario, url: service.url })]));
    }
    const { rss, peak } = residentMb(service.pid);
    return { command: `node ${options.args.join(' ')}`, startedMb, endMb: rss, peakMb: peak, runs };
  } finally {
    await service.stop();
  }
}

export function printServiceMemory(m: ServiceMemory): void {
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const requests = m.runs.reduce((sum, r) => sum + r.total, 0);
  const failed = m.runs.reduce((sum, r) => sum + r.failed, 0);
  console.log(`\nThe service's memory (\`${m.command}\`, a process of its own on the bench's database, ${fmt(requests)} requests of ${m.runs.map((r) => r.name).join(', ')})`);
  if (m.command.includes('dist/')) console.log('  (dist/ as `npm run build` last made it: a build older than the sources measures older code)');
  console.log(`  RSS after start-up ${fmt(m.startedMb)} MB, after the load ${fmt(m.endMb)} MB, peak ${fmt(m.peakMb)} MB`);
  const clean = failed === 0;
  console.log(
    `  ${clean && m.endMb < TARGET_RSS_MB ? 'PASS' : 'FAIL'}  \`${m.command}\`'s RSS after the load: ${fmt(m.endMb)} MB (target < ${TARGET_RSS_MB} MB)` +
      `${clean ? '' : ` (${fmt(failed)} requests failed: figures not valid)`}`,
  );
}
