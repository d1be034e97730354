import { z } from 'zod';
import { isoTimestamp, locale, recordKey, siteUrl, uuid } from '../../../shared/schemas.js';

const localeFallbacks = z
  .record(locale, z.array(locale))
  .describe(
    'Per asked language, the languages a Reader read serves next when a record lacks it, in order, before the default: {"fr-CH": ["fr", "de"]}. Every language must be one of `locales`.',
  );

const meter = z
  .strictObject({
    limit: z.int().min(0).max(1000).describe('Distinct subscriber contents a signed-in reader without the entitlement may open per period; 0: no meter'),
    period_days: z.int().min(1).max(366).describe('The length of a period in days; periods are counted from 1970-01-01 UTC'),
  })
  .describe('The meter of subscriber contents');

export const mediaSchema = z
  .object({
    id: uuid,
    name: z.string(),
    default_locale: locale,
    locales: z.array(locale).describe('Languages this media publishes in; locale entries must use one of them'),
    site_url: z.string().nullable().describe(siteUrl.description!),
    locale_fallbacks: localeFallbacks,
    meter,
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .meta({ id: 'Media' });

export const mediaUpdateBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    default_locale: locale.optional(),
    locales: z.array(locale).min(1).max(50).optional(),
    site_url: siteUrl.nullable().optional(),
    locale_fallbacks: localeFallbacks
      .refine((chains) => Object.keys(chains).length <= 50, 'at most 50 chains')
      .refine((chains) => Object.values(chains).every((chain) => chain.length <= 10), 'a chain has at most 10 languages')
      .optional(),
    meter: meter.optional(),
  })
  .meta({ id: 'MediaUpdate' });

const workspaceKey = recordKey.describe('Stable handle, unique within the media');

export const workspaceSchema = z
  .object({
    id: uuid,
    media_id: uuid,
    key: z.string(),
    name: z.string(),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .meta({ id: 'Workspace' });

export const workspaceCreateBody = z
  .strictObject({ key: workspaceKey, name: z.string().trim().min(1).max(200) })
  .meta({ id: 'WorkspaceCreate' });

export const workspaceUpdateBody = z
  .strictObject({ key: workspaceKey.optional(), name: z.string().trim().min(1).max(200).optional() })
  .meta({ id: 'WorkspaceUpdate' });

const statusKey = z.string().regex(/^[a-z][a-z0-9_]{0,62}$/, 'must be lower-case letters, digits or _ (at most 63)');

export const statusSchema = z
  .object({
    id: uuid,
    key: z.string(),
    name: z.string(),
    is_published: z.boolean().describe('Records in this status are visible to Reader and Public'),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .meta({ id: 'Status' });

export const statusCreateBody = z
  .strictObject({ key: statusKey, name: z.string().trim().min(1).max(200), is_published: z.boolean().default(false) })
  .meta({ id: 'StatusCreate' });

export type MediaUpdate = z.output<typeof mediaUpdateBody>;
export type WorkspaceCreate = z.output<typeof workspaceCreateBody>;
export type WorkspaceUpdate = z.output<typeof workspaceUpdateBody>;
export type StatusCreate = z.output<typeof statusCreateBody>;
