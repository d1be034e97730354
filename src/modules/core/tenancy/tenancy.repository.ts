import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { uniqueOr } from '../../../shared/errors.js';
import { type Paginator, newestFirst } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { coreErrors } from '../core.errors.js';
import { type MediaRow, type StatusRow, type WorkspaceRow, media, statuses, workspaces } from './tenancy.table.js';

const mediaOrder = newestFirst<MediaRow>(media);
const workspaceOrder = newestFirst<WorkspaceRow>(workspaces);
const statusOrder = newestFirst<StatusRow>(statuses);

export function createTenancyRepository(pager: Paginator) {
  return {
    async findMedia(db: Executor, id: string): Promise<MediaRow | undefined> {
      const [row] = await db.select().from(media).where(eq(media.id, id));
      return row;
    },

    async firstMedia(db: Executor): Promise<MediaRow | undefined> {
      const [row] = await db.select().from(media).orderBy(asc(media.insertedAt), asc(media.id)).limit(1);
      return row;
    },

    // A deployment holds a handful of medias: no page index of their own.
    listMedia: (db: Executor, query: PagingQuery) => pager.page({ select: db.select().from(media), keyset: mediaOrder, scope: 'media' }, query),

    async insertMedia(db: Executor, values: typeof media.$inferInsert): Promise<MediaRow> {
      const [row] = await db.insert(media).values(values).returning();
      return row!;
    },

    async updateMedia(db: Executor, id: string, values: Partial<typeof media.$inferInsert>): Promise<MediaRow | undefined> {
      const [row] = await db
        .update(media)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(media.id, id))
        .returning();
      return row;
    },

    listWorkspaces: (db: Executor, mediaId: string, query: PagingQuery) =>
      pager.page(
        { select: db.select().from(workspaces), keyset: workspaceOrder, scope: `workspaces:${mediaId}`, where: eq(workspaces.mediaId, mediaId) },
        query,
      ),

    async findWorkspace(db: Executor, mediaId: string, id: string): Promise<WorkspaceRow | undefined> {
      const [row] = await db
        .select()
        .from(workspaces)
        .where(and(eq(workspaces.id, id), eq(workspaces.mediaId, mediaId)));
      return row;
    },

    async insertWorkspace(db: Executor, values: typeof workspaces.$inferInsert): Promise<WorkspaceRow> {
      const [row] = await uniqueOr(db.insert(workspaces).values(values).returning(), coreErrors.workspaceKeyTaken);
      return row!;
    },

    async updateWorkspace(
      db: Executor,
      mediaId: string,
      id: string,
      values: Partial<typeof workspaces.$inferInsert>,
    ): Promise<WorkspaceRow | undefined> {
      const [row] = await uniqueOr(
        db
          .update(workspaces)
          .set({ ...values, updatedAt: new Date() })
          .where(and(eq(workspaces.id, id), eq(workspaces.mediaId, mediaId)))
          .returning(),
        coreErrors.workspaceKeyTaken,
      );
      return row;
    },

    listStatuses: (db: Executor, mediaId: string, query: PagingQuery) =>
      pager.page(
        { select: db.select().from(statuses), keyset: statusOrder, scope: `statuses:${mediaId}`, where: eq(statuses.mediaId, mediaId) },
        query,
      ),

    async insertStatuses(db: Executor, values: Array<typeof statuses.$inferInsert>): Promise<StatusRow[]> {
      return uniqueOr(db.insert(statuses).values(values).returning(), coreErrors.statusKeyTaken);
    },
  };
}

export type TenancyRepository = ReturnType<typeof createTenancyRepository>;
