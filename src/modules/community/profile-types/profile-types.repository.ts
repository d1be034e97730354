import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { errors, uniqueOr } from '../../../shared/errors.js';
import { type Paginator, newestFirst } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { type ProfileTypeRow, profileTypes } from './profile-types.table.js';

const order = newestFirst<ProfileTypeRow>(profileTypes);

export function createProfileTypesRepository(pager: Paginator) {
  return {
    async list(db: Executor, mediaId: string, query: PagingQuery) {
      return pager.page(
        db.select().from(profileTypes),
        order,
        `profile_types:${mediaId}`,
        query,
        eq(profileTypes.mediaId, mediaId),
      );
    },

    async find(db: Executor, mediaId: string, id: string): Promise<ProfileTypeRow | undefined> {
      const [row] = await db
        .select()
        .from(profileTypes)
        .where(and(eq(profileTypes.id, id), eq(profileTypes.mediaId, mediaId)));
      return row;
    },

    async insert(db: Executor, values: typeof profileTypes.$inferInsert): Promise<ProfileTypeRow> {
      const [row] = await uniqueOr(db.insert(profileTypes).values(values).returning(), () =>
        errors.conflict('profile_type_key_taken', 'a profile type with this key already exists'),
      );
      return row!;
    },
  };
}

export type ProfileTypesRepository = ReturnType<typeof createProfileTypesRepository>;
