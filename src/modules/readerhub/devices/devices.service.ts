import type { RequestContext } from '../../../shared/context.js';
import type { ReaderRow } from '../accounts/accounts.table.js';
import type { DevicesRepository } from './devices.repository.js';
import type { DeviceRegister } from './devices.schemas.js';

export function createDevicesService(deps: { repo: DevicesRepository }) {
  const { repo } = deps;
  return {
    register: (ctx: RequestContext, reader: ReaderRow, input: DeviceRegister) =>
      repo.upsert(ctx.db, {
        mediaId: reader.mediaId,
        readerId: reader.id,
        token: input.token,
        platform: input.platform,
        name: input.name ?? null,
      }),
  };
}

export type DevicesService = ReturnType<typeof createDevicesService>;
