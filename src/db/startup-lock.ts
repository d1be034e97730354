import type { Database } from './client.js';

// Any constant shared by every instance of this service.
const STARTUP_LOCK = 7_301_117;

/**
 * Runs `work` while holding a PostgreSQL advisory lock, so that instances starting together
 * do not both create the first media or the bootstrap key. PGlite lives in one process and
 * needs none.
 */
export async function withStartupLock<T>(database: Database, work: () => Promise<T>): Promise<T> {
  if (!database.pool) return work();
  const client = await database.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
    try {
      return await work();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]);
    }
  } finally {
    client.release();
  }
}
