import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type Paginator, newestFirst } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import {
  type ReaderProfileRow,
  type ReaderRow,
  readerProfileMetadata,
  readerProfiles,
  readers,
} from './accounts.table.js';

export interface MetadataJson {
  key: string;
  value: string;
}
export type ProfileWithMetadata = ReaderProfileRow & { metadata: MetadataJson[] };

export interface ReaderIdentity {
  mediaId: string;
  providerId: string;
  sub: string;
  email: string | null;
  name: string | null;
}

const order = newestFirst<ReaderRow>(readers);

// The pairs of each profile in the same query, in the order the reader gave them.
const withMetadata = {
  ...getTableColumns(readerProfiles),
  metadata: sql<MetadataJson[]>`coalesce((
    select json_agg(json_build_object('key', m.key, 'value', m.value) order by m.position)
    from reader_profile_metadata m
    where m.profile_id = ${readerProfiles}.id
  ), '[]'::json)`.as('metadata'),
};

const identityIs = (identity: Pick<ReaderIdentity, 'mediaId' | 'providerId' | 'sub'>) =>
  and(eq(readers.mediaId, identity.mediaId), eq(readers.providerId, identity.providerId), eq(readers.sub, identity.sub));

export function createAccountsRepository(pager: Paginator) {
  return {
    // --- readers
    async list(db: Executor, mediaId: string, query: PagingQuery & { email?: string | undefined }) {
      return pager.page(
        db.select().from(readers),
        order,
        `readers:${mediaId}`,
        query,
        and(eq(readers.mediaId, mediaId), query.email ? sql`lower(${readers.email}) = lower(${query.email})` : undefined),
      );
    },

    async find(db: Executor, mediaId: string, id: string): Promise<ReaderRow | undefined> {
      const [row] = await db
        .select()
        .from(readers)
        .where(and(eq(readers.id, id), eq(readers.mediaId, mediaId)));
      return row;
    },

    async findByIdentity(db: Executor, identity: ReaderIdentity): Promise<ReaderRow | undefined> {
      const [row] = await db.select().from(readers).where(identityIs(identity));
      return row;
    },

    /** Inserts the reader unless the identity exists already (then undefined). */
    async insertIfAbsent(db: Executor, identity: ReaderIdentity): Promise<ReaderRow | undefined> {
      const [row] = await db
        .insert(readers)
        .values(identity)
        .onConflictDoNothing({ target: [readers.mediaId, readers.providerId, readers.sub] })
        .returning();
      return row;
    },

    /**
     * Inserts the reader, or refreshes e-mail and name from the token when they changed.
     * Answers undefined when the reader exists and nothing changed (no row is written).
     */
    async upsert(db: Executor, identity: ReaderIdentity): Promise<{ row: ReaderRow; created: boolean } | undefined> {
      // A token without the claim keeps what we knew.
      const email = sql`coalesce(excluded.email, ${readers.email})`;
      const name = sql`coalesce(excluded.name, ${readers.name})`;
      const [row] = await db
        .insert(readers)
        .values(identity)
        .onConflictDoUpdate({
          target: [readers.mediaId, readers.providerId, readers.sub],
          set: { email, name, updatedAt: sql`now()` },
          setWhere: sql`${readers.email} is distinct from ${email} or ${readers.name} is distinct from ${name}`,
        })
        // xmax is 0 only on a freshly inserted row version.
        .returning({ ...getTableColumns(readers), created: sql<boolean>`(xmax = 0)` });
      if (!row) return undefined;
      const { created, ...reader } = row;
      return { row: reader, created };
    },

    // --- profile
    async findProfile(db: Executor, readerId: string): Promise<ProfileWithMetadata | undefined> {
      const [row] = await db.select(withMetadata).from(readerProfiles).where(eq(readerProfiles.readerId, readerId));
      return row;
    },

    /** The new profile, or undefined when the reader has one already. */
    async insertProfile(db: Executor, values: typeof readerProfiles.$inferInsert): Promise<ReaderProfileRow | undefined> {
      const [row] = await db
        .insert(readerProfiles)
        .values(values)
        .onConflictDoNothing({ target: readerProfiles.readerId })
        .returning();
      return row;
    },

    /** Locks the reader's profile for the rest of the transaction; its id, or undefined. */
    async lockProfile(db: Executor, readerId: string): Promise<string | undefined> {
      const [row] = await db
        .select({ id: readerProfiles.id })
        .from(readerProfiles)
        .where(eq(readerProfiles.readerId, readerId))
        .for('update');
      return row?.id;
    },

    async updateProfile(db: Executor, id: string, values: Partial<typeof readerProfiles.$inferInsert>): Promise<void> {
      await db
        .update(readerProfiles)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(readerProfiles.id, id));
    },

    async metadata(db: Executor, profileId: string): Promise<MetadataJson[]> {
      return db
        .select({ key: readerProfileMetadata.key, value: readerProfileMetadata.value })
        .from(readerProfileMetadata)
        .where(eq(readerProfileMetadata.profileId, profileId))
        .orderBy(asc(readerProfileMetadata.position));
    },

    /** Replaces every pair of the profile; run it in a transaction. */
    async replaceMetadata(db: Executor, profileId: string, pairs: MetadataJson[]): Promise<void> {
      await db.delete(readerProfileMetadata).where(eq(readerProfileMetadata.profileId, profileId));
      if (pairs.length > 0) {
        await db
          .insert(readerProfileMetadata)
          .values(pairs.map((p, position) => ({ profileId, position, key: p.key, value: p.value })));
      }
    },
  };
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
