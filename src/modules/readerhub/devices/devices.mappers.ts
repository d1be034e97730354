import { iso } from '../../../shared/time.js';
import type { DEVICE_PLATFORMS } from './devices.schemas.js';
import type { ReaderDeviceRow } from './devices.table.js';

// The push token is left out: the reader sent it, and it should travel no further than needed.
export const toReaderDevice = (row: ReaderDeviceRow) => ({
  id: row.id,
  platform: row.platform as (typeof DEVICE_PLATFORMS)[number],
  name: row.name,
  last_registered_at: iso(row.lastRegisteredAt),
  inserted_at: iso(row.insertedAt),
  updated_at: iso(row.updatedAt),
});
