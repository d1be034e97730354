import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { testConfig } from '../setup/app.js';
import { createContent, docsFixture } from '../setup/docs.js';
import { client, seedMedia } from '../setup/factories.js';
import { onConnection, withDatabase } from '../setup/global-setup.js';
import { killSpawned, migratedDataDir } from '../setup/processes.js';
import { startSmtpSink } from '../setup/smtp-sink.js';
import { type ServerProcess, startServer, waitForReady } from './server-process.js';

// Issue 14: a newsletter to 1,000 subscribers, the service killed (SIGKILL) half-way through the
// send and started again on the same database: every subscriber gets exactly one message.
const SUBSCRIBERS = 1000;
const KILL_AT = 400;
const dataDir = mkdtempSync(join(tmpdir(), 'mps-newsletter-'));
const pgUrl = process.env.TEST_DATABASE_URL;
let dropDatabase: (() => Promise<void>) | undefined;

afterEach(killSpawned);
afterAll(async () => {
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The database the spawned service uses: a clone of the migrated template (PostgreSQL) or a PGlite directory. */
async function serviceDatabase(): Promise<{ env: Record<string, string>; open: () => ReturnType<typeof createDatabase> }> {
  const template = inject('templateDatabase');
  if (pgUrl && template) {
    const name = `mps_nl_${randomBytes(5).toString('hex')}`;
    await onConnection(pgUrl, `create database ${name} template ${template}`);
    const url = withDatabase(pgUrl, name);
    dropDatabase = async () => {
      await onConnection(pgUrl, `drop database if exists ${name} with (force)`);
    };
    return { env: { DATABASE_URL: url }, open: () => createDatabase({ databaseUrl: url, poolSize: 3 }) };
  }
  migratedDataDir(dataDir);
  return { env: { DATA_DIR: dataDir }, open: () => createDatabase({ dataDir: join(dataDir, 'pglite') }) };
}

describe('a newsletter send killed half-way and restarted', () => {
  it('delivers exactly one message (one Message-ID) to every subscriber', async () => {
    const sink = await startSmtpSink({ parse: false });
    const { env, open } = await serviceDatabase();

    // Seed in-process, then hand the database to the service.
    const database = await open();
    await migrate(database);
    const seeding = await buildApp({ config: testConfig(), database });
    await seeding.ready();
    const media = await seedMedia(seeding);
    const api = client(seeding, media.keys.messenger);
    const editor = client(seeding, media.keys.editor);
    const content = await createContent(editor, await docsFixture(editor, media.workspaceId));
    const list = (await api.post('/messenger/v2/mailing-lists', { locales: [{ locale: 'en', name: 'Everyone' }] })).json().data;
    const emails = Array.from({ length: SUBSCRIBERS }, (_, i) => `s${i}@example.com`);
    const bulk = await api.post(`/messenger/v2/mailing-lists/${list.id}/subscriptions/bulk`, { subscriptions: emails.map((email) => ({ email })) });
    expect(bulk.json().data.created).toBe(SUBSCRIBERS);
    await seeding.close();

    const serviceEnv = { ...env, SMTP_URL: sink.url, MAIL_LEASE_SECONDS: '2', LOG_LEVEL: 'warn', RATE_LIMIT_BACKOFFICE: '100000' };
    let server: ServerProcess = await startServer(serviceEnv);
    await waitForReady(server);
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`http://127.0.0.1:${server.port}${path}`, {
        method,
        headers: { 'x-api-key': media.keys.messenger, ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });

    // The first service dies (SIGKILL, its whole process group) as the sink takes message KILL_AT.
    let killed = false;
    const watch = setInterval(() => {
      if (!killed && sink.messages.length >= KILL_AT) {
        killed = true;
        server.kill();
      }
    }, 1);
    const sent = await call('POST', `/messenger/v2/mailing-lists/${list.id}/newsletters`, { content_id: content.id });
    expect(sent.status).toBe(201);
    const newsletter = ((await sent.json()) as { data: { id: string; recipients: { total: number } } }).data;
    expect(newsletter.recipients.total).toBe(SUBSCRIBERS);
    await server.exited;
    clearInterval(watch);
    const atKill = sink.messages.length;
    expect(atKill).toBeGreaterThanOrEqual(KILL_AT);
    expect(atKill).toBeLessThan(SUBSCRIBERS);

    // A new service on the same database finishes the send.
    server = await startServer(serviceEnv);
    await waitForReady(server);
    let status: { status: string; recipients: Record<string, number> } | undefined;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      status = ((await (await call('GET', `/messenger/v2/newsletters/${newsletter.id}`)).json()) as { data: typeof status }).data;
      if (status!.status === 'done') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toMatchObject({ status: 'done', recipients: { total: SUBSCRIBERS, sent: SUBSCRIBERS, failed: 0, queued: 0, sending: 0 } });
    server.kill();

    // Every subscriber: exactly one message (one Message-ID). A message the first service had
    // handed to SMTP but not yet recorded as sent when it died is sent again with the same
    // Message-ID (at most one claimed batch); receivers treat that as the same message.
    const byRecipient = new Map<string, Set<string>>();
    for (const message of sink.messages) {
      const id = /^Message-ID: (<[^>]+>)/im.exec(message.raw)?.[1];
      expect(id).toBeDefined();
      for (const to of message.to) {
        const ids = byRecipient.get(to) ?? new Set<string>();
        ids.add(id!);
        byRecipient.set(to, ids);
      }
    }
    expect([...byRecipient.keys()].sort()).toEqual([...emails].sort());
    expect([...byRecipient.values()].every((ids) => ids.size === 1)).toBe(true);
    const retransmitted = sink.messages.length - SUBSCRIBERS;
    expect(retransmitted).toBeGreaterThanOrEqual(0);
    expect(retransmitted).toBeLessThanOrEqual(8);
    await sink.close();
  }, 180_000);
});
