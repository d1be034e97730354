/**
 * SIGTERM under a client that keeps 48 requests in flight (issue 47 item 2), on the built service
 * (`node dist/main.js`, as the image runs it: `npm run build` first) with its default settings:
 * per database and per connection mode (keep-alive, one connection per request), ROUNDS rounds of
 * start, 96 answers, SIGTERM; each round counts the requests sent before the signal that got no
 * answer (by error), the exit code, and the time from the signal to the exit.
 *
 *   npm run build && npx tsx bench/shutdown.ts   # BENCH_DATABASE_URL=postgres://…/postgres for PostgreSQL too
 *
 * SHUTDOWN_DELAY_MS, when set, is passed on (the same rounds with another delay).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onScratchDatabase } from './database.js';
import { freePort, stopGroup } from './startup.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = join(ROOT, 'dist', 'main.js');
const IN_FLIGHT = 48;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const KEY = 'shutdown-bench-bootstrap-key-0123456789abcdef';

interface Round {
  sentBefore: number;
  /** Requests sent before the signal that got no answer, by error code. */
  lost: Record<string, number>;
  /** Requests sent after the signal: answered, and failed (refused once the listener closed). */
  answeredAfter: number;
  failedAfter: number;
  exitCode: number | null;
  exitMs: number;
}

/** GET on `port`, resolving to the status or the socket error's code; never rejects. */
function get(agent: Agent | false, port: number, path: string): Promise<{ status?: number; error?: string }> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { 'x-api-key': KEY } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode! }));
      res.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end();
  });
}

async function startService(env: Record<string, string>): Promise<{ child: ChildProcess; port: number; exited: Promise<number | null> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      BOOTSTRAP_API_KEY: KEY,
      RATE_LIMIT_BACKOFFICE: '10000000',
      ...(process.env.SHUTDOWN_DELAY_MS && { SHUTDOWN_DELAY_MS: process.env.SHUTDOWN_DELAY_MS }),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  for (const started = Date.now(); ; ) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    if (Date.now() - started > 120_000) throw new Error('the service was not ready within 120 s');
    if ((await get(false, port, '/ready')).status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, port, exited };
}

async function round(env: Record<string, string>, keepAlive: boolean): Promise<Round> {
  const service = await startService(env);
  try {
    const agent = keepAlive ? new Agent({ keepAlive: true, maxSockets: IN_FLIGHT }) : false;
    const result: Round = { sentBefore: 0, lost: {}, answeredAfter: 0, failedAfter: 0, exitCode: null, exitMs: 0 };
    let signalled = false;
    let answers = 0;
    const client = async () => {
      while (service.child.exitCode === null) {
        const before = !signalled;
        if (before) result.sentBefore += 1;
        const { error } = await get(agent, service.port, '/core/v2/categories?limit=5');
        if (!error) answers += 1;
        if (before && error) result.lost[error] = (result.lost[error] ?? 0) + 1;
        if (!before) result[error ? 'failedAfter' : 'answeredAfter'] += 1;
        if (error && !before) break;
      }
    };
    const clients = Promise.all(Array.from({ length: IN_FLIGHT }, client));
    while (answers < 2 * IN_FLIGHT) await new Promise((resolve) => setTimeout(resolve, 10));
    const signalledAt = performance.now();
    signalled = true;
    service.child.kill('SIGTERM');
    result.exitCode = await service.exited;
    result.exitMs = performance.now() - signalledAt;
    await clients;
    if (agent) agent.destroy();
    return result;
  } finally {
    await stopGroup(service.child);
  }
}

async function measure(database: string, env: Record<string, string>): Promise<void> {
  for (const keepAlive of [true, false]) {
    const rounds: Round[] = [];
    for (let i = 0; i < ROUNDS; i++) rounds.push(await round(env, keepAlive));
    const lost = rounds.map((r) => Object.entries(r.lost).map(([code, n]) => `${n} ${code}`).join(' + ') || '0');
    console.log(
      `  ${database}, ${keepAlive ? 'keep-alive' : 'one connection per request'}: ` +
        `lost of those sent before the signal: ${lost.join(', ')} (of ${rounds.map((r) => r.sentBefore).join(', ')}); ` +
        `after it: ${rounds.map((r) => `${r.answeredAfter} answered / ${r.failedAfter} refused`).join(', ')}; ` +
        `exit ${rounds.map((r) => r.exitCode).join(', ')} after ${rounds.map((r) => `${Math.round(r.exitMs)} ms`).join(', ')}`,
    );
  }
}

if (!existsSync(MAIN)) throw new Error('dist/main.js is missing: `npm run build` first');
console.log(`SIGTERM with ${IN_FLIGHT} requests in flight, SHUTDOWN_DELAY_MS ${process.env.SHUTDOWN_DELAY_MS ?? 'default'}, ${ROUNDS} rounds each`);
const dir = mkdtempSync(join(tmpdir(), 'mps-bench-shutdown-'));
try {
  await measure('PGlite', { DATA_DIR: dir });
  const server = process.env.BENCH_DATABASE_URL;
  if (server) await onScratchDatabase(server, `mps_bench_shutdown_${process.pid}`, (url) => measure('PostgreSQL', { DATA_DIR: dir, DATABASE_URL: url }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
