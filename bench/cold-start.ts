/**
 * Cold start of the built service (`node dist/main.js`, as the image runs it; `npm run build`
 * first) against a bare Fastify + pg server (bench/bare-server.js), in the same run, on the same
 * PostgreSQL database (migrated, bootstrapped): each spawned in turn until its first 200 on
 * /health, ROUNDS times; the medians and their ratio (issue 47 item 8: at most 3×). Also the
 * phases the service logs (ms since its process started), the median of each.
 *
 *   npm run build && BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/cold-start.ts
 *
 * Part of `npm run bench` on PostgreSQL (with dist/ built). BENCH_BEFORE_MAIN names another build's main (the code before a change), measured in the same turns.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onScratchDatabase } from './database.js';
import { processCpuUs } from './processes.js';
import { freePort } from './startup.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SERVICE_MAIN = join(ROOT, 'dist', 'main.js');
const BARE = join(ROOT, 'bench', 'bare-server.js');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
export const TARGET_RATIO = 3;

interface Start {
  ms: number;
  /** The process's CPU time (all its threads) up to its first answer: what a loaded machine distorts least. */
  cpuMs: number;
  /** The service's own log: ms since its process started, per phase. */
  phases: Record<string, number>;
}

/** `node <script>` until its first 200 on /health; then SIGINT (no drain delay) and its exit. */
async function coldStart(script: string, databaseUrl: string): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(port), DATABASE_URL: databaseUrl, LOG_LEVEL: 'info', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}:\n${output.slice(-2000)}`);
      if (performance.now() - started > 60_000) throw new Error(`no /health from ${script} after 60 s`);
      if (await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false)) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const ms = performance.now() - started;
    const cpuMs = processCpuUs(child.pid!).cpuUs / 1000;
    const phases: Record<string, number> = {};
    for (const line of output.split('\n')) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { msg?: string; ms?: number };
      if (typeof entry.ms === 'number' && entry.msg) phases[entry.msg.replace(/: \d+$/, '')] = entry.ms;
    }
    return { ms, cpuMs, phases };
  } finally {
    child.kill('SIGINT');
    await exited;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export interface ColdStartResult {
  service: Start[];
  bare: Start[];
  before?: Start[];
}

/** ROUNDS turns of bare server then service, on a database of its own on `serverUrl`. */
export async function measureColdStart(serverUrl: string, beforeMain?: string): Promise<ColdStartResult> {
  if (!existsSync(SERVICE_MAIN)) throw new Error('dist/main.js is missing: `npm run build` first');
  return onScratchDatabase(serverUrl, `mps_bench_cold_${process.pid}`, async (url) => {
    await coldStart(SERVICE_MAIN, url); // migrates and bootstraps: every measured start finds a ready database
    const result: ColdStartResult = { service: [], bare: [], ...(beforeMain && { before: [] }) };
    for (let i = 0; i < ROUNDS; i++) {
      result.bare.push(await coldStart(BARE, url));
      result.service.push(await coldStart(SERVICE_MAIN, url));
      if (beforeMain) result.before!.push(await coldStart(beforeMain, url));
    }
    return result;
  });
}

export function printColdStart({ service, bare, before }: ColdStartResult): void {
  const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`;
  const line = (name: string, starts: Start[]) =>
    `  ${name}: ${ms(median(starts.map((r) => r.ms)))}, CPU ${ms(median(starts.map((r) => r.cpuMs)))}  ` +
    `(${starts.map((r) => `${Math.round(r.ms)}/${Math.round(r.cpuMs)}`).join(', ')})`;
  const phases = Object.keys(service[0]!.phases)
    .map((name) => `${name} ${ms(median(service.map((r) => r.phases[name] ?? NaN)))}`)
    .join(', ');
  const wall = median(service.map((r) => r.ms)) / median(bare.map((r) => r.ms));
  const cpu = median(service.map((r) => r.cpuMs)) / median(bare.map((r) => r.cpuMs));
  console.log(`Cold start on PostgreSQL (spawn to the first 200 on /health, wall/CPU ms; medians of ${service.length} rounds taken in turns)`);
  console.log(line('bare Fastify + pg', bare));
  console.log(line('node dist/main.js', service));
  if (before) console.log(line('before (BENCH_BEFORE_MAIN)', before));
  console.log(`  service phases (ms since its process started): ${phases}`);
  console.log(`  ${wall <= TARGET_RATIO ? 'PASS' : 'FAIL'}  ${wall.toFixed(2)}× the bare server's wall time, CPU ${cpu.toFixed(2)}× (target <= ${TARGET_RATIO}×)\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const server = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!server) throw new Error('BENCH_DATABASE_URL (or DATABASE_URL) must name a PostgreSQL server');
  printColdStart(await measureColdStart(server, process.env.BENCH_BEFORE_MAIN));
}
