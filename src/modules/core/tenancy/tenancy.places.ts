import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Places } from '../../../shared/workspace.js';
import { statuses, workspaces } from './tenancy.table.js';

// What other modules' records need of the media's workspaces and statuses, exported by core's
// index so that their repositories and services never name core's tables.

/** The places a media's records live in: its workspaces and statuses (placement and transfer checks). */
export const mediaPlaces: Places = {
  workspaces: { table: workspaces, id: workspaces.id, mediaId: workspaces.mediaId },
  statuses: { table: statuses, id: statuses.id, mediaId: statuses.mediaId },
};

/** SQL: whether `statusId` (a value, or a row's column) is a published status, inside the caller's statement. */
export const isPublishedStatus = (statusId: string | PgColumn | SQL) =>
  sql<boolean>`exists (select 1 from ${statuses} where ${statuses.id} = ${statusId} and ${statuses.isPublished})`;
