import { getTableColumns, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type ReaderDeviceRow, readerDevices as d } from './devices.table.js';

export const devicesRepository = {
  /**
   * Registers the token in one statement, safe under concurrent calls: a new token makes a
   * row, a known one moves to this reader and is refreshed. `created` tells which happened.
   */
  async upsert(db: Executor, values: typeof d.$inferInsert): Promise<{ row: ReaderDeviceRow; created: boolean }> {
    const [row] = await db
      .insert(d)
      .values(values)
      .onConflictDoUpdate({
        target: [d.mediaId, d.token],
        set: {
          readerId: sql`excluded.reader_id`,
          platform: sql`excluded.platform`,
          name: sql`coalesce(excluded.name, ${d.name})`,
          lastRegisteredAt: sql`now()`,
          updatedAt: sql`now()`,
        },
      })
      // xmax is 0 only on a freshly inserted row version.
      .returning({ ...getTableColumns(d), created: sql<boolean>`(xmax = 0)` });
    const { created, ...device } = row!;
    return { row: device, created };
  },
};

export type DevicesRepository = typeof devicesRepository;
