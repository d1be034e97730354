/**
 * Messenger (issue 14): a newsletter fanned out to 10,000 subscribers into a local SMTP sink
 * (smtp-server, counting what it accepts), through the real service as `npm start` runs it (a
 * child process with SMTP_URL set), its RSS sampled from /proc during the send. Beside it, the
 * floor: the same number of messages of the same size sent by nodemailer's pooled transport
 * straight to the same sink (no database, no queue): what SMTP alone allows on this machine.
 *
 * Part of `npm run bench` (BENCH_ONLY=messenger runs it alone); `tsx bench/messenger.ts` too.
 * DATABASE_URL set: the service gets a database of its own on that server (dropped after);
 * unset: a PGlite directory of its own.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { freePort, stopGroup } from './startup.js';

const SUBSCRIBERS = 10_000;
const KEY = 'bench-messenger-key-0123456789abcdef0123';
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** An SMTP server that accepts everything and only counts messages and bytes. */
async function startSink() {
  let messages = 0;
  let bytes = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', (c: Buffer) => (bytes += c.length));
      stream.on('end', () => {
        messages++;
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port)));
  return {
    url: `smtp://127.0.0.1:${port}`,
    get messages() {
      return messages;
    },
    get bytes() {
      return bytes;
    },
    reset() {
      messages = 0;
      bytes = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const rssMbOf = (pid: number): number | undefined => {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
};

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export interface MessengerBenchResult {
  messages: number;
  seconds: number;
  perSecond: number;
  floorPerSecond: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  rssAfterMb: number;
}

export async function runMessengerBench(options: { databaseUrl?: string | undefined } = {}): Promise<MessengerBenchResult> {
  const sink = await startSink();
  const dataDir = mkdtempSync(join(tmpdir(), 'mps-bench-messenger-'));
  const dbName = `mps_bench_msg_${process.pid}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: options.databaseUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  let child: ChildProcess | undefined;
  try {
    const env: Record<string, string> = { DATA_DIR: dataDir };
    if (options.databaseUrl) {
      await admin(`drop database if exists ${dbName} with (force)`);
      await admin(`create database ${dbName}`);
      const url = new URL(options.databaseUrl);
      url.pathname = `/${dbName}`;
      env.DATABASE_URL = url.toString();
    }
    const port = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        ...env,
        PORT: String(port),
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        BOOTSTRAP_API_KEY: KEY,
        SMTP_URL: sink.url,
        MAIL_FROM: 'Bench <bench@example.org>',
        RATE_LIMIT_BACKOFFICE: '1000000',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
      detached: true,
    });
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error('the service did not become ready');
      const ok = await fetch(`${base}/ready`).then((r) => r.ok, () => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const res = await fetch(base + path, {
        method,
        headers: { 'x-api-key': KEY, ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: T }).data;
    };

    // Seed through the API: a published content, a list, 10,000 subscribed addresses.
    const workspace = (await call<Array<{ id: string }>>('GET', '/core/v2/workspaces'))[0]!;
    const statuses = await call<Array<{ id: string; key: string }>>('GET', '/core/v2/statuses');
    const type = await call<{ id: string }>('POST', '/docs/v2/content-types', { key: 'article', name: 'Article' });
    const template = await call<{ id: string }>('POST', '/docs/v2/templates', { content_type_id: type.id, key: 'standard', name: 'Standard', block_kinds: ['richtext'] });
    const content = await call<{ id: string }>('POST', '/docs/v2/contents', {
      template_id: template.id,
      workspace_id: workspace.id,
      status_id: statuses.find((s) => s.key === 'published')!.id,
      published_at: new Date(Date.now() - 60_000).toISOString(),
      locales: [{ locale: 'en', title_html: 'The week in review', lead_html: '<p>Seven days, five stories, one newsletter.</p>' }],
    });
    await call('POST', `/docs/v2/contents/${content.id}/blocks`, {
      kind: 'richtext',
      locale: 'en',
      content_html: `<p>${'A paragraph of the body, as long as a short article would have it. '.repeat(30)}</p>`,
    });
    const list = await call<{ id: string }>('POST', '/messenger/v2/mailing-lists', { locales: [{ locale: 'en', name: 'Weekly' }] });
    for (let from = 0; from < SUBSCRIBERS; from += 1000) {
      const subscriptions = Array.from({ length: 1000 }, (_, i) => ({ email: `reader${from + i}@bench.example.org` }));
      await call('POST', `/messenger/v2/mailing-lists/${list.id}/subscriptions/bulk`, { subscriptions });
    }

    // The send, from the POST until the sink holds every message and the outbox says done.
    const rssBeforeMb = rssMbOf(child.pid!) ?? 0;
    let rssPeakMb = rssBeforeMb;
    const sampler = setInterval(() => {
      rssPeakMb = Math.max(rssPeakMb, rssMbOf(child!.pid!) ?? 0);
    }, 50);
    const started = performance.now();
    const newsletter = await call<{ id: string }>('POST', `/messenger/v2/mailing-lists/${list.id}/newsletters`, { content_id: content.id });
    const sendDeadline = Date.now() + 300_000;
    for (;;) {
      const state = await call<{ status: string; recipients: { sent: number } }>('GET', `/messenger/v2/newsletters/${newsletter.id}`);
      if (state.status === 'done' && sink.messages >= SUBSCRIBERS) break;
      if (Date.now() > sendDeadline) throw new Error(`the send did not finish: ${state.recipients.sent} sent`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const rssAfterMb = rssMbOf(child.pid!) ?? 0;
    const messages = sink.messages;
    const size = sink.bytes / Math.max(messages, 1);

    // The floor: nodemailer's pool straight to the sink, the same count and size, 8 at a time.
    sink.reset();
    const transport = nodemailer.createTransport(`${sink.url}?pool=true&maxConnections=5`);
    const body = 'x'.repeat(Math.max(0, Math.round(size) - 600));
    const floorStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < SUBSCRIBERS) {
          const i = next++;
          await transport.sendMail({ from: 'bench@example.org', to: `reader${i}@bench.example.org`, subject: 'The week in review', text: body, html: `<p>${body}</p>` });
        }
      }),
    );
    const floorSeconds = (performance.now() - floorStarted) / 1000;
    transport.close();

    const result = {
      messages,
      seconds,
      perSecond: messages / seconds,
      floorPerSecond: SUBSCRIBERS / floorSeconds,
      rssBeforeMb,
      rssPeakMb,
      rssAfterMb,
    };
    console.log(`\nMessenger (issue 14): newsletter fan-out to ${fmt(SUBSCRIBERS)} subscribers into a local SMTP sink (${options.databaseUrl ? 'PostgreSQL' : 'PGlite'})`);
    console.log(`  service: ${fmt(messages)} messages (${fmt(size / 1024, 1)} KB each) in ${fmt(seconds, 1)} s = ${fmt(result.perSecond)} messages/s, from the POST to the last one recorded sent`);
    console.log(`  floor (nodemailer pool straight to the sink, no database, no queue): ${fmt(result.floorPerSecond)} messages/s (service at ${fmt((100 * result.perSecond) / result.floorPerSecond)} %)`);
    console.log(`  service RSS: ${fmt(rssBeforeMb)} MB before the send, peak ${fmt(rssPeakMb)} MB during it, ${fmt(rssAfterMb)} MB after`);
    return result;
  } finally {
    // SIGTERM to its process group, SIGKILL if it has not exited 15 s later; its timer goes with the exit.
    if (child?.pid) await stopGroup(child);
    await sink.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (options.databaseUrl) await admin(`drop database if exists ${dbName} with (force)`).catch(() => undefined);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  runMessengerBench({ databaseUrl: process.env.DATABASE_URL || undefined }).then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
