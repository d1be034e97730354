/**
 * `npm run bench:ab -- <base>`: the service at `<base>` (a commit, a branch; HEAD by default) side
 * by side with this checkout's, to see a change of a few per cent that `npm run bench` cannot (an
 * hour's drift between two runs moves a read by more). PostgreSQL only (DATABASE_URL): both services
 * run as processes of their own, `npm start`'s command, on one seeded database of the bench's, and
 * are loaded one at a time in turns of 1 s (A then B, or B then A, alternately), each one's CPU per
 * request read from /proc for that process alone. What it prints per read is the median over the
 * turns of B's CPU against A's in the same turn, and in how many turns B cost less. The turns are
 * spread over a few pairs of fresh processes (each side's own cost per process is averaged over
 * several processes), and each pair's median is printed too: pairs that disagree say the change is
 * within what a process's own start decides. On this 2-core
 * VM one turn's ratio moves by 10-20 % even with the same code on both sides (the server, the
 * database and the load share the cores), so a change of 3 % needs some 30-50 turns to show.
 *
 * AB_TURNS (30, in all), AB_PAIRS (4: the pairs of fresh service processes the turns are spread over),
 * AB_SLICE_S (1), AB_CONNECTIONS (50), AB_ONLY (a pattern of the reads' names) change it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { systemContext } from '../src/shared/context.js';
import { openBenchDatabase, sampleCategoryIds, seedCategories } from './database.js';
import type { LoadScenario } from './load.js';
import { clientCredentialsToken, deepPagePath, processCpuUs, runLoad, startLoadGenerator, touchEveryRoute } from './processes.js';
import { median } from './rows.js';
import { type ServiceProcess, startServiceProcess } from './service.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TURNS = Math.max(2, Number(process.env.AB_TURNS ?? 30));
const SLICE_S = Number(process.env.AB_SLICE_S ?? 1);
const CONNECTIONS = Number(process.env.AB_CONNECTIONS ?? 50);
const PAIRS = Math.max(1, Math.min(TURNS, Number(process.env.AB_PAIRS ?? 4)));

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
  const oauthClient = await app.services.oauth.clients.create(systemContext(app.db, media.id), { name: 'ab', scopes: ['media:read'], type: 'confidential' });
  await seedCategories(bench.query, media.id, 10_000);
  const ids = await sampleCategoryIds(bench.query, media.id, 100);
  const routes = [...app.routeTable];
  await app.close();

  const start = (root: string) => startServiceProcess({ args: ['--import', 'tsx', 'src/main.ts'], root, databaseUrl: bench.url!, onStart: (stop) => cleanups.push(stop) });
  const auth = { 'x-api-key': secret };
  type Read = { name: string; headers: Record<string, string>; paths: Record<'A' | 'B', string[]> };
  const wanted = (name: string) => !process.env.AB_ONLY || new RegExp(process.env.AB_ONLY).test(name);

  // One service at a time, A then B or B then A in turn: each has the machine to itself for its
  // slice, and the two slices of a turn are a second apart. Loading both at once (as this harness
  // did) made each one's cost depend on the other: over 10 turns, one process of two running the
  // same code cost 1.3 to 1.9 times the other, the one started first the dearer in 6 pairs of 8.
  const loader = startLoadGenerator();
  cleanups.push(() => loader.connected && loader.disconnect());

  console.log(`A: ${base} (${baseCommit.slice(0, 10)}), B: this checkout (${git('rev-parse', '--short=10', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no') ? ' with changes' : ''})`);
  console.log(
    `${PAIRS} pairs of service processes, ${TURNS} turns of ${SLICE_S} s per read in all, A and B loaded in turn (${CONNECTIONS} connections); CPU µs per request of each service process`,
  );
  const cpu: Record<string, { a: number[]; b: number[]; pairs: number[] }> = {};
  for (let pair = 0; pair < PAIRS; pair++) {
    // A process keeps for its lifetime a cost of its own (where its code and heap landed, when its
    // code was optimised): two processes of the same code were seen to differ by 9 % over 60
    // turns. Fresh processes for each pair, started in turn A first and B first, spread that over
    // both sides instead of charging one side with it.
    const order = pair % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const);
    const started: Partial<Record<'A' | 'B', ServiceProcess>> = {};
    for (const side of order) started[side] = await start(side === 'A' ? worktree : ROOT);
    const services = started as Record<'A' | 'B', ServiceProcess>;
    const bearer = {
      authorization: `Bearer ${await clientCredentialsToken(services.B.url, { id: oauthClient.row.id, secret: oauthClient.secret! })}`,
      'x-service-media-id': media.id,
    };
    // Each service serves every GET route once first, as a running service has (bench/run.ts does the same).
    for (const side of order) await touchEveryRoute(services[side].url, routes, { backoffice: auth, reader: bearer });
    // A read's paths per side: the deep page's cursor is each side's own, so that a change of the
    // cursors' format can be compared too (either side would refuse the other's).
    const same = (paths: string[]) => ({ A: paths, B: paths });
    const reads: Read[] = [
      ...(wanted('list first page') ? [{ name: 'list first page', headers: auth, paths: same(['/core/v2/categories?limit=20']) }] : []),
      ...(wanted('reader list (bearer)') ? [{ name: 'reader list (bearer)', headers: bearer, paths: same(['/api/media/v1/categories?limit=20']) }] : []),
      ...(wanted('list deep page')
        ? [{ name: 'list deep page', headers: auth, paths: { A: [await deepPagePath(services.A.url, auth, 5_000)], B: [await deepPagePath(services.B.url, auth, 5_000)] } }]
        : []),
      ...(wanted('by id') ? [{ name: 'by id', headers: auth, paths: same(ids.map((id) => `/core/v2/categories/${id}`)) }] : []),
    ];
    const scenarioOf = (side: 'A' | 'B', read: Read, seconds: number): LoadScenario => ({
      url: services[side].url,
      method: 'GET',
      headers: read.headers,
      paths: read.paths[side],
      connections: CONNECTIONS,
      durationSeconds: seconds,
      warmupSeconds: 0,
    });
    const turn = async (read: Read, seconds: number, swap: boolean) => {
      const used = { A: 0, B: 0 };
      for (const side of swap ? (['B', 'A'] as const) : (['A', 'B'] as const)) {
        const before = processCpuUs(services[side].pid).cpuUs;
        const r = await runLoad(loader, scenarioOf(side, read, seconds));
        if (r.non2xx + r.errors + r.timeouts > 0) throw new Error(`${read.name} on ${side}: ${r.non2xx} non-2xx, ${r.errors} errors`);
        used[side] = (processCpuUs(services[side].pid).cpuUs - before) / r.total;
      }
      return used;
    };
    // The turns spread over the pairs as evenly as they go.
    const turns = Math.floor(TURNS / PAIRS) + Number(pair < TURNS % PAIRS);
    for (const read of reads) {
      await turn(read, 3, false);
      const row = (cpu[read.name] ??= { a: [], b: [], pairs: [] });
      const a: number[] = [];
      const b: number[] = [];
      const ratios: number[] = [];
      for (let i = 0; i < turns; i++) {
        const used = await turn(read, SLICE_S, i % 2 === 1);
        a.push(used.A);
        b.push(used.B);
        ratios.push(used.B / used.A);
      }
      row.a.push(...a);
      row.b.push(...b);
      row.pairs.push(median(ratios));
      console.log(
        `  pair ${pair + 1}/${PAIRS} (${order[0]} started first): ${read.name}: A ${median(a).toFixed(1)} µs, B ${median(b).toFixed(1)} µs, B/A ${median(ratios).toFixed(3)} over ${turns} turns`,
      );
    }
    for (const side of order) await services[side].stop();
  }
  for (const [name, { a, b, pairs }] of Object.entries(cpu)) {
    const ratios = b.map((x, i) => x / a[i]!);
    const fewer = ratios.filter((r) => r < 1).length;
    console.log(
      `${name.padEnd(22)} A ${median(a).toFixed(1).padStart(6)} µs  B ${median(b).toFixed(1).padStart(6)} µs  ` +
        `B/A ${median(ratios).toFixed(3)} (median of the turns; ${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}), B cheaper in ${fewer} of ${ratios.length}; ` +
        `pairs ${pairs.map((r) => r.toFixed(3)).join(' ')}`,
    );
  }
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(cleanup);
