/**
 * Start-up time as a user meets it: `npm start` spawned (in a process group of its own) until
 * the first 200 from /health, on an empty PGlite data directory (initdb and every migration),
 * then again on that same, now warm, directory. Also the phases the service logs on the way.
 *
 * Part of `npm run bench`; `npm run bench:startup` runs it alone.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The targets for the first /health. */
export const TARGET_EMPTY_MS = 6_000;
export const TARGET_WARM_MS = 3_000;
const WARM_RUNS = 3;
/** A start that takes longer has failed. */
const GIVE_UP_MS = 60_000;

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface StartMeasure {
  /** From spawning `npm start` to the first 200 on /health. */
  healthMs: number;
  /** The service's own log: ms since its node process started, per phase. */
  phases: Record<string, number>;
}

export interface StartupResult {
  empty: StartMeasure;
  warm: StartMeasure[];
}

/** A port nothing listens on right now (the kernel's choice). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/**
 * The child's next IPC message that is an object with `key`, its other messages passed over
 * (a child may answer more than one protocol on its channel: a floor's start, a profiler's turns).
 */
export const messageWith = <T extends object>(child: ChildProcess, key: string): Promise<T> =>
  new Promise((resolve) => {
    const onMessage = (message: unknown) => {
      if (typeof message !== 'object' || message === null || !(key in message)) return;
      child.off('message', onMessage);
      resolve(message as T);
    };
    child.on('message', onMessage);
  });

/** SIGTERM to the child's process group, SIGKILL after 15 s; resolves once it has exited. */
export const stopGroup = async (child: ChildProcess) => {
  const exited = new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    return; // gone already
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  }, 15_000);
  await exited;
  clearTimeout(timer);
};

async function startOnce(dataDir: string): Promise<StartMeasure> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  // Whatever ends the bench (its time cap, Ctrl-C), the service's process group goes with it.
  const killOnExit = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone already
    }
  };
  process.once('exit', killOnExit);
  let output = '';
  child.stdout!.on('data', (d) => (output += String(d)));
  child.stderr!.on('data', (d) => (output += String(d)));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output.slice(-2000)}`);
      if (performance.now() - started > GIVE_UP_MS) throw new Error(`no /health after ${GIVE_UP_MS / 1000} s:\n${output.slice(-2000)}`);
      const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
        (res) => res.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const healthMs = performance.now() - started;
    const phases: Record<string, number> = {};
    for (const line of output.split('\n')) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { msg?: string; ms?: number };
      if (typeof entry.ms === 'number' && entry.msg) phases[entry.msg.replace(/: \d+$/, '')] = entry.ms;
    }
    return { healthMs, phases };
  } finally {
    await stopGroup(child);
    process.off('exit', killOnExit);
  }
}

/** One start on an empty data directory, then WARM_RUNS on the same one; the directory is removed after. */
export async function measureStartup(): Promise<StartupResult> {
  const dir = mkdtempSync(join(tmpdir(), 'mps-bench-start-'));
  try {
    const empty = await startOnce(dir);
    const warm: StartMeasure[] = [];
    for (let i = 0; i < WARM_RUNS; i++) warm.push(await startOnce(dir));
    return { empty, warm };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ms = (n: number | undefined) => (n === undefined ? '-' : `${Math.round(n).toLocaleString('en-US')} ms`);

export function printStartup(result: StartupResult): void {
  const sorted = [...result.warm].sort((a, b) => a.healthMs - b.healthMs);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const worst = sorted[sorted.length - 1]!;
  const phase = (m: StartMeasure) =>
    `starting ${ms(m.phases.starting)}, database open ${ms(m.phases['database open'])}, ` +
    `migrations applied ${ms(m.phases['migrations applied'])}, listening ${ms(m.phases.listening)}`;
  console.log('Start-up (`npm start` to the first 200 on /health; phases: ms since the node process started)');
  console.log(`  empty data directory: ${ms(result.empty.healthMs)}  (${phase(result.empty)})`);
  console.log(`  warm data directory:  ${ms(median.healthMs)} median of ${sorted.length}, worst ${ms(worst.healthMs)}  (${phase(median)})`);
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  console.log(`  ${verdict(result.empty.healthMs < TARGET_EMPTY_MS)}  empty: ${ms(result.empty.healthMs)} (target < ${ms(TARGET_EMPTY_MS)})`);
  console.log(`  ${verdict(median.healthMs < TARGET_WARM_MS)}  warm: ${ms(median.healthMs)} (target < ${ms(TARGET_WARM_MS)})\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  printStartup(await measureStartup());
}
