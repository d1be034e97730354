import { openBenchDatabase, seedCategories } from './database.js';
import { loadConfig } from '../src/config.js';
import { buildApp } from '../src/app.js';
import { createLogger } from '../src/logger.js';
const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', RATE_LIMIT_BACKOFFICE: '10000000', RATE_LIMIT_READER: '10000000' });
const bench = await openBenchDatabase(process.env.DATABASE_URL);
const app = await buildApp({ config, database: bench.database, logger: createLogger(config) });
const { media } = await app.services.core.tenancy.createMedia({ name: 'B', defaultLocale: 'en', locales: ['en', 'fr'] });
const { secret } = await app.services.core.apiKeys.create(media.id, { name: 'b', role: 'editor' });
await seedCategories(bench.query, media.id, 10000);
const headers = { 'x-api-key': secret };
let url = '/core/v2/categories?limit=20';
for (let i = 0; i < 250; i++) url = (await app.inject({ url, headers })).json().meta.next.replace(/^https?:\/\/[^/]+/, '');
const id = (await app.inject({ url: '/core/v2/categories?limit=1', headers })).json().data[0].id;
const cases: Record<string, string> = { first: '/core/v2/categories?limit=20', deep: url, byid: `/core/v2/categories/${id}` };
async function run(u: string, n: number) {
  let i = 0;
  const worker = async () => { while (i++ < n) { const r = await app.inject({ url: u, headers }); if (r.statusCode !== 200) throw new Error(r.body); } };
  const t = process.cpuUsage();
  await Promise.all(Array.from({ length: 20 }, worker));
  const d = process.cpuUsage(t);
  return (d.user + d.system) / n;
}
const only = process.env.CASES?.split(',') ?? Object.keys(cases);
for (const c of only) await run(cases[c]!, 3000);
const res: Record<string, number[]> = {};
for (let r = 0; r < Number(process.env.ROUNDS ?? 5); r++) for (const c of only) (res[c] ??= []).push(await run(cases[c]!, c === 'byid' ? 8000 : 3000));
for (const [c, v] of Object.entries(res)) { v.sort((a, b) => a - b); console.log(c, 'median', v[v.length >> 1]!.toFixed(1), 'us', v.map((x) => x.toFixed(0)).join(' ')); }
await app.close();
await bench.dispose();
