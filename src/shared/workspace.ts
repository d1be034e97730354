import type { Revises } from './revisions.js';
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Executor } from '../db/client.js';
import { errors } from './errors.js';
import type { Permission } from './permissions.js';
import { route, type RequestContext, type Tag, type ZodApp } from './http/route.js';
import { idParams, noContent, uuid } from './schemas.js';
import { rowsOf } from '../db/rows.js';

/**
 * Moving a record to another workspace of its media with a status there: the spec's
 * `…/workspace/transfer` (body `{workspace_id, status_id}`, 204), written once for contents,
 * community profiles and every other record that lives in a workspace.
 */

export const workspaceTransferBody = z
  .strictObject({
    workspace_id: uuid.describe('A workspace of the same media (404 otherwise)'),
    status_id: uuid.describe('A status of the same media (400 otherwise)'),
  })
  .meta({ id: 'WorkspaceTransfer' });

export type WorkspaceTransfer = z.output<typeof workspaceTransferBody>;

export const workspaceErrors = {
  workspaceNotFound: () => errors.notFound('workspace_not_found', 'workspace not found'),
  invalidStatus: () =>
    errors.badRequest('invalid_status', 'status_id is not a status of this media', [
      { path: 'status_id', message: 'is not a status of this media' },
    ]),
};

/** A table of a media's places (workspaces, statuses): its id and media columns. */
export interface PlaceTable {
  table: PgTable;
  id: PgColumn;
  mediaId: PgColumn;
}

/** Where records may be placed: the media's workspaces and statuses. */
export interface Places {
  workspaces: PlaceTable;
  statuses: PlaceTable;
}

const exists = (place: PlaceTable, id: string, mediaId: string): SQL<boolean> =>
  sql<boolean>`exists (select 1 from ${place.table} where ${place.id} = ${id} and ${place.mediaId} = ${mediaId})`;

/**
 * Checks that the workspace (when given: a new record's, a transfer's) and the status belong to
 * the media, in one statement: a workspace elsewhere is a 404 (as any record of another media),
 * a status elsewhere a 400.
 */
export async function assertPlacement(
  db: Executor,
  places: Places,
  mediaId: string,
  target: { workspaceId?: string | undefined; statusId: string },
) {
  const workspace = target.workspaceId ? exists(places.workspaces, target.workspaceId, mediaId) : sql`true`;
  const result = await db.execute(sql`select ${workspace} as workspace, ${exists(places.statuses, target.statusId, mediaId)} as status`);
  const [row] = rowsOf<{ workspace: boolean; status: boolean }>(result);
  if (!row?.workspace) throw workspaceErrors.workspaceNotFound();
  if (!row.status) throw workspaceErrors.invalidStatus();
}

/** A record that lives in a workspace: its table and the columns a transfer reads and writes. */
export interface Placed {
  table: PgTable;
  id: PgColumn;
  owner: PgColumn;
  workspaceId: PgColumn;
  statusId: PgColumn;
  updatedAt?: PgColumn;
  deletedAt?: PgColumn;
}

/**
 * Moves a live record of the media to the target workspace and status (checked first);
 * false when there is no such live record. Run it in the caller's transaction.
 */
export async function transferToWorkspace(
  tx: Executor,
  record: Placed,
  places: Places,
  id: string,
  mediaId: string,
  target: WorkspaceTransfer,
): Promise<boolean> {
  await assertPlacement(tx, places, mediaId, { workspaceId: target.workspace_id, statusId: target.status_id });
  const set = [
    sql`${sql.identifier(record.workspaceId.name)} = ${target.workspace_id}`,
    sql`${sql.identifier(record.statusId.name)} = ${target.status_id}`,
    ...(record.updatedAt ? [sql`${sql.identifier(record.updatedAt.name)} = now()`] : []),
  ];
  const result = await tx.execute(
    sql`update ${record.table} set ${sql.join(set, sql`, `)}
        where ${record.id} = ${id} and ${record.owner} = ${mediaId}${record.deletedAt ? sql` and ${record.deletedAt} is null` : sql``}
        returning 1 as moved`,
  );
  return rowsOf(result).length > 0;
}

/** Declares `POST <record>/workspace/transfer` (204) for a kind of record. */
export function workspaceTransferRoute(
  app: ZodApp,
  def: {
    /** The record's path, e.g. `/contents/:id`. */
    record: string;
    operationId: string;
    summary: string;
    tag: Tag;
    permission: Permission;
    /** The record's kind on the wire (its webhook event and audit entry). */
    kind: string;
    /** The record's revisions, when its kind keeps them. */
    revises?: Revises;
    transfer: (ctx: RequestContext, id: string, target: WorkspaceTransfer) => Promise<void>;
  },
) {
  route(app, {
    method: 'POST',
    url: `${def.record}/workspace/transfer`,
    operationId: def.operationId,
    summary: def.summary,
    description:
      'Moves the record to a workspace of the same media with a status there. A workspace of another media is a 404, a status of another media a 400.',
    tag: def.tag,
    access: { permission: def.permission },
    record: { kind: def.kind, ...(def.revises && { revises: def.revises }) },
    params: idParams,
    body: workspaceTransferBody,
    response: { 204: noContent },
    handler: async (ctx, { params, body }, reply) => {
      await def.transfer(ctx, params.id, body);
      reply.status(204);
    },
  });
}
