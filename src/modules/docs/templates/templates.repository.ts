import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../../db/client.js';
import { type AggregateRow, aggregate } from '../../../shared/aggregate.js';
import { uniqueOr } from '../../../shared/errors.js';
import type { Paginator } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { docsErrors } from '../docs.errors.js';
import { type TemplateRow, templates } from './templates.table.js';

export const templateAggregate = aggregate(templates, {
  owner: templates.mediaId,
  conflict: docsErrors.templateKeyTaken,
  parts: {},
});

export type TemplateRecord = AggregateRow<typeof templates, typeof templateAggregate.parts>;

export function createTemplatesRepository(pager: Paginator) {
  return {
    list: (db: Executor, mediaId: string, query: PagingQuery) => templateAggregate.page(pager, db, mediaId, query),

    find: (db: Executor, mediaId: string, id: string) => templateAggregate.find(db, id, mediaId),

    /** The media of a live template, whoever asks (a Public path names the template alone): one prepared lookup. */
    owner: (db: Executor, id: string) => templateAggregate.ownerOf(db, id),

    /** A template of the media, deleted or not: a content keeps following the rules of the one it has. */
    async findAny(db: Executor, mediaId: string, id: string): Promise<TemplateRow | undefined> {
      const [row] = await db
        .select()
        .from(templates)
        .where(and(eq(templates.id, id), eq(templates.mediaId, mediaId)));
      return row;
    },

    /** The live templates among `ids` (a Reader page's assocs), in one statement. */
    findMany: (db: Executor, mediaId: string, ids: string[]) => templateAggregate.findMany(db, ids, mediaId),

    async insert(db: Executor, values: typeof templates.$inferInsert): Promise<string> {
      const [row] = await uniqueOr(db.insert(templates).values(values).returning({ id: templates.id }), docsErrors.templateKeyTaken);
      return row!.id;
    },

    async update(db: Executor, mediaId: string, id: string, values: Partial<TemplateRow>): Promise<void> {
      await uniqueOr(
        db
          .update(templates)
          .set({ ...values, updatedAt: new Date() })
          .where(and(eq(templates.id, id), eq(templates.mediaId, mediaId))),
        docsErrors.templateKeyTaken,
      );
    },
  };
}

export type TemplatesRepository = ReturnType<typeof createTemplatesRepository>;
