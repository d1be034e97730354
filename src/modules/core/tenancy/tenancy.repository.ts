import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { errors, uniqueOr } from '../../../shared/errors.js';
import { type Paginator, newestFirst } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { type MediaRow, type StatusRow, type WorkspaceRow, media, statuses, workspaces } from './tenancy.table.js';

const workspaceKeyTaken = () => errors.conflict('workspace_key_taken', 'a workspace with this key already exists');

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
      pager.page(db.select().from(workspaces), workspaceOrder, `workspaces:${mediaId}`, query, eq(workspaces.mediaId, mediaId)),

    async findWorkspace(db: Executor, mediaId: string, id: string): Promise<WorkspaceRow | undefined> {
      const [row] = await db
        .select()
        .from(workspaces)
        .where(and(eq(workspaces.id, id), eq(workspaces.mediaId, mediaId)));
      return row;
    },

    async insertWorkspace(db: Executor, values: typeof workspaces.$inferInsert): Promise<WorkspaceRow> {
      const [row] = await uniqueOr(db.insert(workspaces).values(values).returning(), workspaceKeyTaken);
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
        workspaceKeyTaken,
      );
      return row;
    },

    async listStatuses(db: Executor, mediaId: string, query: PagingQuery) {
      return pager.page(
        db.select().from(statuses),
        statusOrder,
        `statuses:${mediaId}`,
        query,
        eq(statuses.mediaId, mediaId),
      );
    },

    async insertStatuses(db: Executor, values: Array<typeof statuses.$inferInsert>): Promise<StatusRow[]> {
      return uniqueOr(db.insert(statuses).values(values).returning(), () =>
        errors.conflict('status_key_taken', 'a status with this key already exists'),
      );
    },
  };
}

export type TenancyRepository = ReturnType<typeof createTenancyRepository>;
