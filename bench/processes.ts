/**
 * What the bench and the side-by-side comparison (bench/ab.ts) share: the load generator as a
 * child process, another process's CPU from /proc, and the category reads' paths.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LoadReply, LoadResult, LoadScenario } from './load.js';

export function startLoadGenerator(): ChildProcess {
  // fork() passes on tsx's loader flags (process.execArgv), so the child runs TypeScript too.
  return fork(fileURLToPath(new URL('./load.ts', import.meta.url)), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

export function runLoad(child: ChildProcess, scenario: LoadScenario): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the load generator exited (${code})`));
    child.once('exit', onExit);
    child.once('message', (reply: LoadReply) => {
      child.off('exit', onExit);
      if (reply.ok) resolve(reply.result);
      else reject(new Error(`autocannon failed: ${reply.error}`));
    });
    child.send(scenario);
  });
}

/**
 * CPU time so far of another process (a service or floor process of its own), in µs: the sum over
 * its threads, and its main thread's, from Linux's schedstat (nanoseconds, where /proc's stat
 * counts 10 ms ticks). A thread that ended takes its time with it; Node's threads (V8's helpers,
 * libuv's pool) live as long as the process.
 */
export function processCpuUs(pid: number): { cpuUs: number; mainUs: number } {
  const onCpuNs = (tid: string) => {
    try {
      return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      return 0; // ended between the listing and the read
    }
  };
  const total = readdirSync(`/proc/${pid}/task`).reduce((sum, tid) => sum + onCpuNs(tid), 0);
  return { cpuUs: total / 1000, mainUs: onCpuNs(String(pid)) / 1000 };
}

export async function getJson<T>(url: string, headers: Record<string, string>): Promise<T> {
  const res = await fetch(url, { headers });
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  return (await res.json()) as T;
}

export interface ListBody {
  data: Array<{ id: string; locales: unknown[] }>;
  meta: { next: string | null };
}

/** Follows meta.next from the first page until `rows` rows lie behind; the path of the next page of 20. */
export async function deepPagePath(appUrl: string, headers: Record<string, string>, rows: number): Promise<string> {
  let path = '/core/v2/categories?limit=100';
  for (let seen = 0; seen < rows; ) {
    const page = await getJson<ListBody>(appUrl + path, headers);
    seen += page.data.length;
    if (!page.meta.next) throw new Error(`the listing ended after ${seen} rows`);
    path = page.meta.next;
  }
  const url = new URL(path, appUrl);
  url.searchParams.set('limit', '20');
  return url.pathname + url.search;
}

/** A Reader application token (client credentials) from the service at `appUrl`: an ES256 JWT verified on every request. */
export async function clientCredentialsToken(appUrl: string, client: { id: string; secret: string }): Promise<string> {
  const res = await fetch(
    `${appUrl}/api/media/v1/oauth/token?${new URLSearchParams({ grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret })}`,
    { method: 'POST' },
  );
  if (!res.ok) throw new Error(`token endpoint answered ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A route as the bench touches it: from the app's route table. */
export interface TouchedRoute {
  method: string;
  url: string;
  interface: string;
}

/**
 * One GET of every route the service declares (each path parameter a new uuid; each tree's
 * credentials from `headers`, by interface), before the service is measured. A running service has
 * served all its routes, and the code they share (Fastify's request handling, the hooks, the route
 * primitive) has met the requests and replies of all of them; one that served only the measured
 * reads would be measured in a state no production process is in. Answers are not checked: most
 * are 404s for the made-up ids, which is the point (every tree's path to its answer, errors
 * included). Returns how many requests were made.
 */
export async function touchEveryRoute(appUrl: string, routes: TouchedRoute[], headers: Partial<Record<string, Record<string, string>>>): Promise<number> {
  let made = 0;
  for (const route of routes) {
    if (route.method !== 'GET' || route.url.includes('*')) continue;
    const path = route.url.replace(/:[A-Za-z_]+/g, () => crypto.randomUUID());
    const res = await fetch(appUrl + path, { headers: headers[route.interface] ?? {} });
    await res.arrayBuffer();
    made++;
  }
  return made;
}
