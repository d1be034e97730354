import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { NodePgPreparedQuery } from 'drizzle-orm/node-postgres';
import { createRequire } from 'node:module';
import pg from 'pg';
import { describe, expect, it } from 'vitest';

// What pg-described-rows.ts reads of node-postgres and Drizzle beyond their declared types: should a
// release move any of it, this fails before the described reads do (test/shared/prepared.test.ts
// runs them against PostgreSQL).
describe('pg-described-rows (canary: the internals of pg and Drizzle it uses)', () => {
  it("pg's Query has the extended-protocol steps the subclass overrides or calls", () => {
    const proto = pg.Query.prototype as unknown as Record<string, unknown>;
    for (const method of ['prepare', 'handleRowDescription', 'handleDataRow', 'hasBeenParsed', '_getRows', 'handleError']) {
      expect(typeof proto[method], method).toBe('function');
    }
    const query = new pg.Query({ text: 'select 1', name: 'canary' }, []) as unknown as Record<string, unknown>;
    expect(query._result).toMatchObject({ fields: expect.any(Array) });
    expect(query).toHaveProperty('portal');
    expect(query).toHaveProperty('binary');
    expect(query).toHaveProperty('_canceledDueToError');
  });

  it("pg's utils export prepareValue, the mapping its own prepare binds with", () => {
    const utils = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue?: unknown };
    expect(typeof utils.prepareValue).toBe('function');
  });

  it("a Drizzle node-postgres prepared query holds its pg config, parameters and client", async () => {
    const pool = new pg.Pool({ connectionString: 'postgres://canary@127.0.0.1:1/none' });
    try {
      const prepared = drizzle(pool).select({ x: sql<number>`${sql.placeholder('x')}::int`.as('x') }).from(sql`(select 1) t`).prepare('canary');
      expect(prepared).toBeInstanceOf(NodePgPreparedQuery);
      const internals = prepared as unknown as { rawQueryConfig: { name?: string; text: string }; params: unknown[]; client: unknown };
      expect(internals.rawQueryConfig.name).toBe('canary');
      expect(internals.rawQueryConfig.text).toMatch(/select/i);
      expect(Array.isArray(internals.params)).toBe(true);
      expect(internals.client).toBe(pool);
    } finally {
      await pool.end();
    }
  });
});
