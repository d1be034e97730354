import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type AggregateRow, aggregate, part } from '../../../shared/aggregate.js';
import { type Paginator, newestFirst } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { readerhubErrors } from '../readerhub.errors.js';
import { type ReaderRow, readerProfileMetadata, readerProfiles, readers } from './accounts.table.js';

/**
 * The reader's profile and its {key, value} pairs, read in one statement, pairs in the
 * order the reader gave them. The pairs have no deleted_at: replacing them removes the gone ones.
 */
const metadataPart = part(readerProfileMetadata, {
  parent: readerProfileMetadata.profileId,
  match: ['key'],
  position: 'position',
  columns: ['key', 'value'],
});

export const profileAggregate = aggregate(readerProfiles, {
  owner: readerProfiles.readerId,
  conflict: readerhubErrors.metadataConflict,
  parts: { metadata: metadataPart },
});

export type ProfileWithMetadata = AggregateRow<typeof readerProfiles, typeof profileAggregate.parts>;
export type MetadataPair = ProfileWithMetadata['metadata'][number];

export interface ReaderIdentity {
  mediaId: string;
  providerId: string;
  sub: string;
  email: string | null;
  name: string | null;
}

const order = newestFirst<ReaderRow>(readers);

const identityIs = (identity: Pick<ReaderIdentity, 'mediaId' | 'providerId' | 'sub'>) =>
  and(eq(readers.mediaId, identity.mediaId), eq(readers.providerId, identity.providerId), eq(readers.sub, identity.sub));

export function createAccountsRepository(pager: Paginator) {
  return {
    // --- readers
    list: (db: Executor, mediaId: string, query: PagingQuery & { email?: string | undefined }) =>
      pager.page(
        {
          select: () => db.select().from(readers),
          keyset: order,
          scope: `readers:${mediaId}`,
          where: and(eq(readers.mediaId, mediaId), query.email ? sql`lower(${readers.email}) = lower(${query.email})` : undefined),
        },
        query,
      ),

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
    /** The reader's profile with its pairs (the profile is found by its owner, the reader). */
    async findProfile(db: Executor, readerId: string): Promise<ProfileWithMetadata | undefined> {
      const [row] = await db
        .select(profileAggregate.columns)
        .from(readerProfiles)
        .where(and(eq(readerProfiles.readerId, readerId), profileAggregate.filter()));
      return row;
    },

    /** The new profile's id, or undefined when the reader has one already. */
    async insertProfile(db: Executor, values: typeof readerProfiles.$inferInsert): Promise<string | undefined> {
      const [row] = await db
        .insert(readerProfiles)
        .values(values)
        .onConflictDoNothing({ target: readerProfiles.readerId })
        .returning({ id: readerProfiles.id });
      return row?.id;
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

    /** Makes the profile's pairs exactly `pairs`, in that order; run it in a transaction. */
    replaceMetadata: (tx: Executor, profileId: string, pairs: MetadataPair[]) =>
      profileAggregate.replace(
        tx,
        'metadata',
        profileId,
        pairs.map((p) => ({ key: p.key, value: p.value })),
      ),
  };
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
