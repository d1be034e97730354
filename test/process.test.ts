import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { onConnection, withDatabase } from './setup/global-setup.js';
import { embeddedProcessTests, freePort, killSpawned, migratedDataDir, serverArgs, spawnNode, waitForAnswer } from './setup/processes.js';

// The server process itself (src/main.ts): configuration, migrations, bootstrap, signals.
const dataDir = mkdtempSync(join(tmpdir(), 'mps-process-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

// Node itself runs the server, from the sources transpiled once per run (as the image runs
// dist/main.js; `npm start` through tsx is startup.test.ts's), in a process group of its own:
// whatever a test does, no server outlives it.
afterEach(killSpawned);

function run(env: Record<string, string>) {
  const proc = spawnNode(serverArgs(), { env });
  return { ...proc, out: proc.stdout, err: proc.stderr };
}

describe.runIf(embeddedProcessTests)('the server process on the embedded database', () => {
  it('refuses a bad configuration with one line naming the variable, exit code 1', async () => {
    const proc = run({ PORT: 'abc', DATA_DIR: dataDir });
    expect(await proc.exited).toBe(1);
    expect(proc.err().trim().split('\n').filter((l) => !l.includes('npm warn'))).toEqual([
      'Invalid configuration: PORT must be an integer',
    ]);
  });

  // (A first start, with initdb and every migration, is startup.test.ts's; this one starts on a migrated directory.)
  it('bootstraps the given admin key, serves, and drains on SIGTERM with exit code 0', async () => {
    const port = await freePort();
    const key = 'process-test-bootstrap-key-0123456789abcdef';
    const proc = run({ PORT: String(port), DATA_DIR: migratedDataDir(mkdtempSync(join(dataDir, 'serving-'))), BOOTSTRAP_API_KEY: key, LOG_LEVEL: 'info' });
    try {
      await waitForAnswer(proc, port, '/ready');
      const media = await fetch(`http://127.0.0.1:${port}/core/v2/media`, { headers: { 'x-api-key': key } });
      expect(media.status).toBe(200);
      expect(((await media.json()) as { data: { name: string } }).data.name).toBe('Default media');
      expect(proc.out()).not.toContain(key);
      proc.child.kill('SIGTERM');
      expect(await proc.exited).toBe(0);
      expect(proc.out()).toContain('shutting down');
    } finally {
      proc.kill();
    }
  }, 120_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('two server processes starting together on an empty PostgreSQL', () => {
  it('migrate and bootstrap one after the other: one media, one bootstrap key, both serving', async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const name = `mps_proc_${process.pid}_${Date.now()}`;
    await onConnection(url, `create database ${name}`);
    const procs: Array<ReturnType<typeof run>> = [];
    try {
      const key = 'two-instances-bootstrap-key-0123456789abcdef';
      const ports = [await freePort(), await freePort()];
      for (const port of ports) {
        procs.push(run({ PORT: String(port), DATABASE_URL: withDatabase(url, name), BOOTSTRAP_API_KEY: key, LOG_LEVEL: 'warn' }));
      }
      await Promise.all(ports.map((port, i) => waitForAnswer(procs[i]!, port, '/ready')));
      for (const port of ports) {
        const res = await fetch(`http://127.0.0.1:${port}/core/v2/media`, { headers: { 'x-api-key': key } });
        expect(res.status).toBe(200);
      }
      const counts = await onConnection<{ media: string; keys: string }>(
        withDatabase(url, name),
        'select (select count(*) from media) as media, (select count(*) from api_keys) as keys',
      );
      expect(counts.rows[0]).toEqual({ media: '1', keys: '1' });
      for (const proc of procs) proc.child.kill('SIGTERM');
      expect(await Promise.all(procs.map((p) => p.exited))).toEqual([0, 0]);
    } finally {
      for (const proc of procs) proc.kill();
      await onConnection(url, `drop database if exists ${name} with (force)`);
    }
  }, 120_000);
});
