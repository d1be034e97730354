import type { Db } from '../../../db/client.js';
import type { RequestContext } from '../../../shared/http/route.js';
import type { ReaderRow } from '../accounts/accounts.table.js';
import type { DevicesRepository } from './devices.repository.js';
import type { DeviceRegister } from './devices.schemas.js';

export function createDevicesService(deps: { db: Db; repo: DevicesRepository }) {
  const { db, repo } = deps;
  return {
    register: (_ctx: RequestContext, reader: ReaderRow, input: DeviceRegister) =>
      repo.upsert(db, {
        mediaId: reader.mediaId,
        readerId: reader.id,
        token: input.token,
        platform: input.platform,
        name: input.name ?? null,
      }),
  };
}

export type DevicesService = ReturnType<typeof createDevicesService>;
