import { z } from 'zod';
import { isoTimestamp, timestampInput, uuid } from '../../../shared/schemas.js';
import type { PreviewTokenRow } from './preview-tokens.table.js';

/** Seconds a preview token lives: a minute to a week, an hour by default. */
export const expiresIn = z
  .int()
  .min(60)
  .max(604_800)
  .optional()
  .describe('Seconds until the token expires: 60 to 604800 (a week), 3600 when left out');
export const DEFAULT_EXPIRES_IN = 3600;

/** A content's preview link as lists show it: never its token, which is shown once. */
export const previewLinkSchema = z
  .object({
    id: uuid,
    content_id: uuid,
    expires_at: isoTimestamp,
    revoked_at: isoTimestamp.nullable(),
    inserted_at: isoTimestamp,
  })
  .meta({ id: 'PreviewLink' });

export const createdPreviewLinkSchema = z
  .object({
    id: uuid,
    token: z.string().describe('The secret to send as `x-preview-token` (or `?preview_token=`) to the Reader, shown in this answer only'),
    expires_at: isoTimestamp,
  })
  .meta({ id: 'CreatedPreviewLink' });

export const previewLinkCreateBody = z.object({ expires_in: expiresIn }).strict().meta({ id: 'PreviewLinkCreate' });

export const previewTokenCreateBody = z
  .object({
    as_of: timestampInput.describe('The instant the Reader answers as of: scheduled records published by then appear'),
    expires_in: expiresIn,
  })
  .strict()
  .meta({ id: 'PreviewTokenCreate' });

export const createdPreviewTokenSchema = createdPreviewLinkSchema
  .extend({ as_of: isoTimestamp })
  .meta({ id: 'CreatedPreviewToken' });

export const toPreviewLink = (row: PreviewTokenRow) => ({
  id: row.id,
  content_id: row.contentId!,
  expires_at: row.expiresAt.toISOString(),
  revoked_at: row.revokedAt?.toISOString() ?? null,
  inserted_at: row.insertedAt.toISOString(),
});
