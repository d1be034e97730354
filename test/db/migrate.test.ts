import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/client.js';
import { migrate, migrationsFolder } from '../../src/db/migrate.js';

const dir = mkdtempSync(join(tmpdir(), 'mps-migrate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The start-up check skips drizzle's migrator when nothing is newer than the last recorded
// migration: a database one migration behind must still get it.
describe('migrate', () => {
  it('applies the migrations newer than the last recorded one, and none on the next call', async () => {
    const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
    const older = join(dir, 'migrations');
    cpSync(migrationsFolder, older, { recursive: true });
    writeFileSync(join(older, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, -1) }));
    const database = await createDatabase({});
    try {
      await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder: older });
      expect(await migrate(database)).toBe(1);
      expect(await migrate(database)).toBe(0);
    } finally {
      await database.close();
    }
  }, 60_000);
});
