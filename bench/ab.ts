/**
 * `npm run bench:ab -- <base>`: the service at `<base>` (a commit, a branch; HEAD by default) side
 * by side with this checkout's, to see a change of a few per cent that `npm run bench` cannot (a
 * turn there moves by 5-10 %, and an hour's drift between two runs by more). PostgreSQL only
 * (DATABASE_URL): both services run as processes of their own, `npm start`'s command, on one seeded
 * database of the bench's, and take turns of 1 s under the same load (A B B A, then B A A B), each
 * turn's CPU per request read from /proc for that process alone. What it prints per read is the
 * median over the turns of B's CPU against A's in the same pair of turns, and in how many pairs B
 * cost less. Same code on both sides gives medians within about 5 %.
 *
 * AB_TURNS (12), AB_SLICE_S (1), AB_ONLY (a pattern of the reads' names) change it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { systemContext } from '../src/shared/http/route.js';
import { openBenchDatabase, seedCategories } from './database.js';
import type { LoadScenario } from './load.js';
import { clientCredentialsToken, deepPagePath, processCpuUs, runLoad, startLoadGenerator } from './processes.js';
import { median } from './rows.js';
import { type ServiceProcess, startServiceProcess } from './service.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TURNS = Math.max(2, Number(process.env.AB_TURNS ?? 12));
const SLICE_S = Number(process.env.AB_SLICE_S ?? 1);
const CONNECTIONS = 50;

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error('bench:ab needs DATABASE_URL (PostgreSQL): two service processes share its database');
  process.exit(2);
}
const base = process.argv[2] ?? 'HEAD';
const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
const baseCommit = git('rev-parse', '--verify', `${base}^{commit}`);

const cleanups: Array<() => Promise<unknown> | unknown> = [];
async function cleanup() {
  for (const close of cleanups.reverse()) await Promise.resolve(close()).catch((err) => console.error(err));
  cleanups.length = 0;
}
process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));

async function main() {
  // A: the base commit in a worktree of its own, with this checkout's dependencies.
  const worktree = mkdtempSync(join(tmpdir(), 'mps-ab-'));
  git('worktree', 'add', '--detach', '--force', worktree, baseCommit);
  cleanups.push(() => {
    git('worktree', 'remove', '--force', worktree);
    rmSync(worktree, { recursive: true, force: true });
  });
  symlinkSync(join(ROOT, 'node_modules'), join(worktree, 'node_modules'));

  const bench = await openBenchDatabase(databaseUrl);
  cleanups.push(bench.dispose);
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, database: bench.database, logger: createLogger(config), findWork: false });
  const { media } = await app.services.core.tenancy.createMedia({ name: 'A/B media', defaultLocale: 'en', locales: ['en', 'fr'] });
  const { secret } = await app.services.core.apiKeys.create(media.id, { name: 'ab', role: 'editor' });
  const oauthClient = await app.services.oauth.clients.create(systemContext(media.id), { name: 'ab', scopes: ['media:read'], type: 'confidential' });
  await seedCategories(bench.query, media.id, 10_000);
  const ids = (await bench.query('select id from categories where media_id = $1 order by md5(id::text) limit 100', [media.id])).map((r) => r.id as string);
  await app.close();

  const start = (root: string) => startServiceProcess({ args: ['--import', 'tsx', 'src/main.ts'], root, databaseUrl: bench.url!, onStart: (stop) => cleanups.push(stop) });
  const services: Record<'A' | 'B', ServiceProcess> = { A: await start(worktree), B: await start(ROOT) };
  const auth = { 'x-api-key': secret };
  const bearer = {
    authorization: `Bearer ${await clientCredentialsToken(services.B.url, { id: oauthClient.row.id, secret: oauthClient.secret! })}`,
    'x-service-media-id': media.id,
  };
  const reads: Array<{ name: string; headers: Record<string, string>; paths: string[] }> = [
    { name: 'list first page', headers: auth, paths: ['/core/v2/categories?limit=20'] },
    { name: 'reader list (bearer)', headers: bearer, paths: ['/api/media/v1/categories?limit=20'] },
    { name: 'list deep page', headers: auth, paths: [await deepPagePath(services.B.url, auth, 5_000)] },
    { name: 'by id', headers: auth, paths: ids.map((id) => `/core/v2/categories/${id}`) },
  ].filter((r) => !process.env.AB_ONLY || new RegExp(process.env.AB_ONLY).test(r.name));

  const loader = startLoadGenerator();
  cleanups.push(() => loader.connected && loader.disconnect());
  const turn = async (side: 'A' | 'B', read: (typeof reads)[number], seconds: number) => {
    const scenario: LoadScenario = { url: services[side].url, method: 'GET', headers: read.headers, paths: read.paths, connections: CONNECTIONS, durationSeconds: seconds, warmupSeconds: 0 };
    const before = processCpuUs(services[side].pid).cpuUs;
    const result = await runLoad(loader, scenario);
    if (result.non2xx + result.errors + result.timeouts > 0) throw new Error(`${read.name} on ${side}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return (processCpuUs(services[side].pid).cpuUs - before) / result.total;
  };

  console.log(`A: ${base} (${baseCommit.slice(0, 10)}), B: this checkout (${git('rev-parse', '--short=10', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no') ? ' with changes' : ''})`);
  console.log(`${TURNS} pairs of ${SLICE_S} s turns per read, ${CONNECTIONS} connections; CPU µs per request of each service process`);
  for (const read of reads) {
    for (const side of ['A', 'B'] as const) await turn(side, read, 3);
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < TURNS; i++) {
      // A B B A, B A A B: a pair's two turns sit next to each other, each side first every other time.
      const order = i % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const);
      const cpu = { A: 0, B: 0 };
      for (const side of order) cpu[side] = await turn(side, read, SLICE_S);
      a.push(cpu.A);
      b.push(cpu.B);
    }
    const ratios = b.map((x, i) => x / a[i]!);
    const fewer = ratios.filter((r) => r < 1).length;
    console.log(
      `${read.name.padEnd(22)} A ${median(a).toFixed(1).padStart(6)} µs  B ${median(b).toFixed(1).padStart(6)} µs  ` +
        `B/A ${median(ratios).toFixed(3)} (paired median; ${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}), B cheaper in ${fewer} of ${TURNS}`,
    );
  }
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(cleanup);
