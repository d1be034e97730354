/**
 * The scale test (`npm run test:scale`): two instances of the service (`node --import tsx
 * src/main.ts`, two ports) over one PostgreSQL database this script creates and drops, one Redis
 * and one S3 server (s3rver, in this process), behind nginx (Debian's package, a child of this
 * process with its own configuration in a temporary directory). It shows:
 *   1. rate limits count across both instances (through nginx, the limit + 1st request is a 429);
 *   2. an API key revoked through one instance is refused by the other within a second;
 *   3. an upload made through one instance is served by the other (S3);
 *   4. an Idempotency-Key request replayed through the other instance is a replay;
 *   5. SIGTERM of one instance under load loses no GET (nginx retries what the draining one refuses).
 * Skips (exit 0, with the reason) when nginx is not installed; fails on anything else. Bounded: 90 s.
 *
 * TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) names the server and an
 * existing database to connect to for CREATE/DROP DATABASE; TEST_REDIS_URL (default
 * redis://127.0.0.1:6379) the Redis.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import S3rver from 's3rver';
import sharp from 'sharp';
import { withDatabase } from '../setup/global-setup.js';
import { type Spawned, freePort, spawnNode } from '../setup/processes.js';

const DEADLINE_MS = 90_000;
const ANONYMOUS_LIMIT = 8;
const started = Date.now();
const root = new URL('../..', import.meta.url).pathname;

const pgUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

const log = (message: string) => process.stdout.write(`[scale ${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${message}\n`);

function nginxBinary(): string | undefined {
  for (const candidate of ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx']) if (existsSync(candidate)) return candidate;
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() || undefined : undefined;
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`FAILED: ${message}`);
}

const cleanups: Array<() => Promise<void> | void> = [];

interface Instance {
  name: string;
  url: string;
  proc: Spawned;
}

function startInstance(name: string, port: number, env: Record<string, string>): Instance {
  const proc = spawnNode(['--import', 'tsx', 'src/main.ts'], { cwd: root, env: { ...env, PORT: String(port) } });
  cleanups.push(async () => {
    proc.kill();
    await proc.exited;
  });
  return { name, url: `http://127.0.0.1:${port}`, proc };
}

async function waitReady(instance: Instance, withinMs = 45_000): Promise<void> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (instance.proc.child.exitCode !== null) throw new Error(`${instance.name} exited (${instance.proc.child.exitCode}):\n${instance.proc.stdout()}${instance.proc.stderr()}`);
    try {
      const res = await fetch(`${instance.url}/ready`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${instance.name} not ready within ${withinMs} ms:\n${instance.proc.stdout()}${instance.proc.stderr()}`);
}

async function main(): Promise<void> {
  const nginx = nginxBinary();
  if (!nginx) {
    process.stdout.write('scale test skipped: nginx is not installed (Debian: apt-get install -y nginx)\n');
    return;
  }

  // One database for both instances, created here and dropped at the end.
  const name = `mps_scale_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  cleanups.push(async () => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  log(`database ${name} created`);

  const dir = await mkdtemp(join(tmpdir(), 'mps-scale-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));

  // S3: s3rver in this process, one bucket.
  const bucket = 'mps-scale';
  await mkdir(join(dir, 's3'));
  const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(dir, 's3'), configureBuckets: [{ name: bucket }] });
  const { port: s3Port } = await s3.run();
  cleanups.push(() => s3.close());

  const [portA, portB, portProxy] = [await freePort(), await freePort(), await freePort()];
  const adminKey = `mps_${randomBytes(24).toString('base64url')}`;
  const env = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATABASE_URL: withDatabase(pgUrl, name),
    REDIS_URL: redisUrl,
    BOOTSTRAP_API_KEY: adminKey,
    DATA_DIR: join(dir, 'data'),
    S3_BUCKET: bucket,
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
    RATE_LIMIT_ANONYMOUS: String(ANONYMOUS_LIMIT),
    RATE_LIMIT_BACKOFFICE: '100000',
    // nginx and, before it, this script playing a CDN: the caller is the address the script names
    // (a fresh one each run, so that Redis's counters of an earlier run do not count).
    TRUST_PROXY: '2',
    SHUTDOWN_DELAY_MS: '300',
  };
  const a = startInstance('A', portA, env);
  const b = startInstance('B', portB, env);
  await Promise.all([waitReady(a), waitReady(b)]);
  log(`instances A (:${portA}) and B (:${portB}) ready`);

  // nginx in front of both, a child of this process with its own prefix, config and temp paths.
  const conf = `
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/nginx-body;
  proxy_temp_path ${dir}/nginx-proxy;
  fastcgi_temp_path ${dir}/nginx-fastcgi;
  uwsgi_temp_path ${dir}/nginx-uwsgi;
  scgi_temp_path ${dir}/nginx-scgi;
  upstream mps {
    server 127.0.0.1:${portA} max_fails=1 fail_timeout=10s;
    server 127.0.0.1:${portB} max_fails=1 fail_timeout=10s;
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${portProxy};
    client_max_body_size 25m;
    location / {
      proxy_pass http://mps;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # A connection refused or reset, or a 502/503 from a draining instance: the next one,
      # for idempotent requests (nginx never retries a POST that may have reached a server).
      proxy_next_upstream error timeout http_502 http_503;
      proxy_next_upstream_tries 2;
      proxy_connect_timeout 2s;
    }
  }
}
`;
  await writeFile(join(dir, 'nginx.conf'), conf);
  const proxyProcess = spawn(nginx, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'nginx-error.log')], { stdio: ['ignore', 'inherit', 'inherit'] });
  const proxyExited = new Promise<void>((resolve) => proxyProcess.once('exit', () => resolve()));
  cleanups.push(async () => {
    if (proxyProcess.exitCode === null) {
      proxyProcess.kill('SIGQUIT');
      await Promise.race([proxyExited, sleep(3_000)]);
      if (proxyProcess.exitCode === null) proxyProcess.kill('SIGKILL');
    }
  });
  const proxy = `http://127.0.0.1:${portProxy}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${proxy}/health`)).ok) break;
    } catch {
      // nginx still starting
    }
    check(i < 50 && proxyProcess.exitCode === null, 'nginx did not start');
    await sleep(100);
  }
  log(`nginx (:${portProxy}) in front of both`);

  const asAdmin = { 'x-api-key': adminKey };
  const media = (await (await fetch(`${a.url}/core/v2/media`, { headers: asAdmin })).json()) as { data: { id: string } };
  const mediaId = media.data.id;

  // 1. Rate limits count across both instances: the anonymous Public API, per address.
  {
    const url = `${proxy}/api/public/core/v2/medias/${mediaId}`;
    const headers = { 'x-forwarded-for': `198.51.100.${Math.floor(Math.random() * 250) + 1}` };
    const statuses: number[] = [];
    for (let i = 0; i <= ANONYMOUS_LIMIT; i++) statuses.push((await fetch(url, { headers })).status);
    check(statuses.slice(0, ANONYMOUS_LIMIT).every((s) => s === 200), `the first ${ANONYMOUS_LIMIT} requests answered 200 (${statuses.join(' ')})`);
    check(statuses[ANONYMOUS_LIMIT] === 429, `request ${ANONYMOUS_LIMIT + 1} through nginx (both instances) is a 429 (${statuses.join(' ')})`);
    log(`1. rate limit across both: ${statuses.join(' ')}`);
  }

  // 2. A key revoked through A is refused by B within a second.
  {
    const res = await fetch(`${a.url}/core/v2/api-keys`, {
      method: 'POST',
      headers: { ...asAdmin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'scale', role: 'viewer' }),
    });
    check(res.status === 201, `key created (${res.status})`);
    const { id, key } = ((await res.json()) as { data: { id: string; key: string } }).data;
    const onB = () => fetch(`${b.url}/core/v2/media`, { headers: { 'x-api-key': key } }).then((r) => r.status);
    check((await onB()) === 200 && (await onB()) === 200, 'B accepts (and caches) the key');
    const revoked = await fetch(`${a.url}/core/v2/api-keys/${id}`, { method: 'DELETE', headers: asAdmin });
    check(revoked.status === 204, `revoked through A (${revoked.status})`);
    const at = Date.now();
    let status = await onB();
    while (status !== 401 && Date.now() - at < 1_000) {
      await sleep(10);
      status = await onB();
    }
    const ms = Date.now() - at;
    check(status === 401, `B refuses the key revoked through A within a second (still ${status} after ${ms} ms)`);
    log(`2. key revoked through A refused by B after ${ms} ms`);
  }

  // 3. An upload through A is served by B (S3).
  {
    const image = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#2a7' } }).jpeg().toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'scale.jpg');
    const res = await fetch(`${a.url}/core/v2/assets`, { method: 'POST', headers: asAdmin, body: form });
    check(res.status === 201 || res.status === 200, `uploaded through A (${res.status} ${await res.clone().text()})`);
    const { file_key } = ((await res.json()) as { data: { file_key: string } }).data;
    // Delivered once an image record uses it: until then a 404, which B remembers for a while.
    check((await fetch(`${b.url}/assets/${file_key}`)).status === 404, 'B answers 404 before any image record uses the file');
    const record = await fetch(`${a.url}/core/v2/assets/images`, {
      method: 'POST',
      headers: { ...asAdmin, 'content-type': 'application/json' },
      body: JSON.stringify({ file_key, name: 'Scale' }),
    });
    check(record.status === 201, `image record made through A (${record.status})`);
    const at = Date.now();
    let served = await fetch(`${b.url}/assets/${file_key}`);
    while (served.status !== 200 && Date.now() - at < 1_000) {
      await sleep(10);
      served = await fetch(`${b.url}/assets/${file_key}`);
    }
    const bytes = Buffer.from(await served.arrayBuffer());
    const sha = (buf: Buffer) => createHash('sha256').update(buf).digest('hex');
    check(served.status === 200, `B serves the file uploaded through A (${served.status})`);
    check(sha(bytes) === sha(image), 'B serves the very bytes uploaded through A');
    log(`3. upload through A (${file_key}) served by B, ${bytes.length} bytes, ${Date.now() - at} ms after its image record (B's cached 404 forgotten)`);
  }

  // 4. Idempotency-Key: the request replayed through B is a replay of A's answer.
  {
    const key = `scale-${randomBytes(6).toString('hex')}`;
    const post = (base: string) =>
      fetch(`${base}/core/v2/categories`, {
        method: 'POST',
        headers: { ...asAdmin, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ locales: [{ locale: 'en', name: 'Scale' }] }),
      });
    const first = await post(a.url);
    check(first.status === 201, `created through A (${first.status} ${await first.clone().text()})`);
    check(first.headers.get('idempotent-replayed') === null, 'the first answer is not a replay');
    const again = await post(b.url);
    check(again.status === 201, `the same request through B answers A's status (${again.status})`);
    check(again.headers.get('idempotent-replayed') === 'true', 'the answer through B is a replay (Idempotent-Replayed: true)');
    const [one, two] = [(await first.json()) as { data: { id: string } }, (await again.json()) as { data: { id: string } }];
    check(one.data.id === two.data.id, 'the replay names the same record');
    log(`4. Idempotency-Key replayed through B: Idempotent-Replayed: true, same id ${one.data.id}`);
  }

  // 5. SIGTERM of A under load: no GET through nginx is lost.
  {
    let stop = false;
    const counts = { ok: 0, bad: 0, errors: 0 };
    const bad: string[] = [];
    const worker = async () => {
      while (!stop) {
        try {
          const res = await fetch(`${proxy}/core/v2/categories?limit=5`, { headers: asAdmin });
          await res.arrayBuffer();
          if (res.ok) counts.ok++;
          else {
            counts.bad++;
            if (bad.length < 5) bad.push(String(res.status));
          }
        } catch (err) {
          counts.errors++;
          if (bad.length < 5) bad.push((err as Error).message);
        }
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    await sleep(1_000);
    const before = counts.ok;
    a.proc.child.kill('SIGTERM');
    const code = await Promise.race([a.proc.exited, sleep(15_000).then(() => 'timeout' as const)]);
    await sleep(1_000);
    stop = true;
    await Promise.all(workers);
    check(code === 0, `A exited cleanly after SIGTERM (${code})`);
    check(counts.ok > before, 'requests kept succeeding during and after the drain');
    check(counts.bad === 0 && counts.errors === 0, `no GET lost during the drain (${counts.bad} non-2xx, ${counts.errors} errors: ${bad.join(', ')})`);
    log(`5. SIGTERM of A under load: ${counts.ok} GETs through nginx, 0 non-2xx, 0 errors; A exited ${code}`);
  }
}

const timer = setTimeout(() => {
  console.error(`scale test: over ${DEADLINE_MS / 1000} s, stopping`);
  void cleanup().finally(() => process.exit(1));
}, DEADLINE_MS);

async function cleanup(): Promise<void> {
  for (const step of cleanups.reverse()) {
    try {
      await step();
    } catch (err) {
      console.error(`cleanup: ${(err as Error).message}`);
    }
  }
  cleanups.length = 0;
}

let failed = false;
try {
  await main();
} catch (err) {
  failed = true;
  console.error(err instanceof Error ? err.message : err);
} finally {
  await cleanup();
  clearTimeout(timer);
}
log(failed ? 'scale test FAILED' : 'scale test passed');
process.exit(failed ? 1 : 0);
