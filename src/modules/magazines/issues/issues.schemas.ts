import { z } from 'zod';
import { imageRef, servedImageSchema } from '../../../shared/blocks.js';
import { richHtml } from '../../../shared/html.js';
import { localeQuery, localesMeta } from '../../../shared/http/reader.js';
import { isoTimestamp, locale, pagingQuery, uuid } from '../../../shared/schemas.js';
import { searchSort, searchText } from '../../../shared/search.js';
import { recordKey } from '../../../shared/schemas.js';

export const ISSUE_VISUAL_TYPES = ['none', 'image'] as const;
/** Section block settings: a JSON object of at most this many bytes. */
export const SETTINGS_MAX_BYTES = 16 * 1024;

// ---------------------------------------------------------------------------------------
// Wire (spec 2.8; sections, blocks, slots and section contents, not shown by the spec)

export const issueVisualSchema = z
  .object({ type: z.enum(ISSUE_VISUAL_TYPES), image: servedImageSchema.nullable().describe('null when none or deleted') })
  .meta({ id: 'IssueVisual' });

export const issueSchema = z
  .object({
    id: uuid,
    workspace_id: uuid,
    issue_type_id: uuid,
    kind: z.string(),
    color: z.string().describe('#rrggbb'),
    pdf_file_key: z.string().nullable(),
    advertising_key: z.string().nullable(),
    locales: z.array(
      z.object({
        id: uuid,
        name: z.string(),
        locale,
        visual: issueVisualSchema,
        deleted_at: isoTimestamp.nullable(),
        description_html: z.string().nullable(),
        description_text: z.string().nullable(),
      }),
    ),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
    deleted_at: isoTimestamp.nullable(),
  })
  .meta({ id: 'Issue' });

export const sectionSchema = z
  .object({
    id: uuid,
    issue_id: uuid,
    key: z.string(),
    position: z.int(),
    locales: z.array(
      z.object({
        id: uuid,
        locale,
        name: z.string(),
        description_html: z.string().nullable(),
        description_text: z.string().nullable(),
        deleted_at: isoTimestamp.nullable(),
      }),
    ),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
    deleted_at: isoTimestamp.nullable(),
  })
  .meta({ id: 'Section' });

export const slotSchema = z
  .object({ id: uuid, block_id: uuid, position: z.int(), content_id: uuid, inserted_at: isoTimestamp, updated_at: isoTimestamp })
  .meta({ id: 'BlockSlot' });

const settingsSchema = z.record(z.string(), z.unknown());

export const sectionBlockSchema = z
  .object({
    id: uuid,
    section_id: uuid,
    kind: z.string().describe('The layout name'),
    position: z.int(),
    settings: settingsSchema,
    slots: z.array(slotSchema),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .meta({ id: 'SectionBlock' });

export const sectionContentSchema = z
  .object({
    id: uuid,
    issue_id: uuid,
    section_id: uuid,
    content_id: uuid,
    position: z.int(),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
    deleted_at: isoTimestamp.nullable(),
  })
  .meta({ id: 'SectionContent' });

// ---------------------------------------------------------------------------------------
// Request bodies

const unique = (values: unknown[]) => new Set(values).size === values.length;

const visualInput = z
  .strictObject({ type: z.enum(ISSUE_VISUAL_TYPES), image: imageRef.optional() })
  .superRefine((v, ctx) => {
    if (v.type === 'image' && !v.image) ctx.addIssue({ code: 'custom', path: ['image'], message: 'is required when type is image' });
    if (v.type !== 'image' && v.image) ctx.addIssue({ code: 'custom', path: ['image'], message: 'is only allowed when type is image' });
  })
  .meta({ id: 'IssueVisualInput' });

const issueLocaleInput = z.strictObject({
  locale,
  name: z.string().trim().min(1).max(500),
  description_html: richHtml(20_000).nullable().optional(),
  visual: visualInput.optional(),
});

const localesOf = <T extends z.ZodType<{ locale: string }>>(entry: T) =>
  z
    .array(entry)
    .min(1)
    .max(50)
    .refine((entries) => unique(entries.map((e) => e.locale)), { message: 'each locale may appear only once' });

const issueFields = {
  issue_type_id: uuid.describe('An issue type of the media'),
  kind: z.string().trim().min(1).max(100).describe('e.g. regular, special'),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be # followed by six hexadecimal digits'),
  pdf_file_key: z.string().min(1).max(500).nullable().optional(),
  advertising_key: z.string().min(1).max(200).nullable().optional(),
  locales: localesOf(issueLocaleInput),
};

export const issueCreateBody = z.strictObject(issueFields).meta({ id: 'IssueCreate' });
export const issueUpdateBody = z
  .strictObject({
    issue_type_id: issueFields.issue_type_id.optional(),
    kind: issueFields.kind.optional(),
    color: issueFields.color.optional(),
    pdf_file_key: issueFields.pdf_file_key,
    advertising_key: issueFields.advertising_key,
    locales: issueFields.locales.optional().describe('The complete set of language entries; missing ones are removed'),
  })
  .meta({ id: 'IssueUpdate' });

const sectionLocaleInput = z.strictObject({
  locale,
  name: z.string().trim().min(1).max(500),
  description_html: richHtml(20_000).nullable().optional(),
});

const position = z.int().min(0).max(100_000);

export const sectionCreateBody = z
  .strictObject({
    key: recordKey,
    position: position.optional().describe('Order among the issue’s sections; after the last one by default'),
    locales: localesOf(sectionLocaleInput),
  })
  .meta({ id: 'SectionCreate' });

export const sectionUpdateBody = z
  .strictObject({ key: recordKey.optional(), position: position.optional(), locales: localesOf(sectionLocaleInput).optional() })
  .meta({ id: 'SectionUpdate' });

const settingsInput = settingsSchema.refine((s) => Buffer.byteLength(JSON.stringify(s)) <= SETTINGS_MAX_BYTES, {
  message: `must be at most ${SETTINGS_MAX_BYTES} bytes of JSON`,
});

/** A set in position order: positions distinct; the set is stored in their order, renumbered 0..n-1. */
const ordered = <T extends z.ZodType<{ position: number; id?: string | undefined }>>(entry: T, max: number) =>
  z
    .array(entry)
    .max(max)
    .refine((entries) => unique(entries.map((e) => e.position)), { message: 'each position may appear only once' })
    .refine((entries) => unique(entries.flatMap((e) => (e.id ? [e.id] : []))), { message: 'each id may appear only once' });

export const blocksBody = z
  .strictObject({
    blocks: ordered(
      z.strictObject({
        id: uuid.optional().describe('An existing block of this section to keep; leave out to create one'),
        kind: z.string().trim().min(1).max(100),
        position,
        settings: settingsInput.optional(),
      }),
      200,
    ),
  })
  .meta({ id: 'SectionBlocksReplace' });

export const blockUpdateBody = z
  .strictObject({ kind: z.string().trim().min(1).max(100).optional(), settings: settingsInput.optional() })
  .meta({ id: 'SectionBlockUpdate' });

export const slotsBody = z
  .strictObject({
    slots: ordered(
      z.strictObject({ id: uuid.optional(), position, content_id: uuid.describe('A content of the media') }),
      200,
    ),
  })
  .meta({ id: 'BlockSlotsReplace' });

export const sectionContentCreateBody = z
  .strictObject({
    section_id: uuid.describe('A section of this issue'),
    content_id: uuid.describe('A content of the media'),
    position: position.optional().describe('After the section’s last content by default'),
  })
  .meta({ id: 'SectionContentCreate' });

export const issueContentsSearchQuery = pagingQuery.extend({ q: searchText, sort: searchSort }).meta({ id: 'SectionContentsSearchQuery' });

export type IssueCreate = z.output<typeof issueCreateBody>;
export type IssueUpdate = z.output<typeof issueUpdateBody>;
export type SectionCreate = z.output<typeof sectionCreateBody>;
export type SectionUpdate = z.output<typeof sectionUpdateBody>;
export type BlocksBody = z.output<typeof blocksBody>;
export type BlockUpdate = z.output<typeof blockUpdateBody>;
export type SlotsBody = z.output<typeof slotsBody>;
export type SectionContentCreate = z.output<typeof sectionContentCreateBody>;
export type IssueContentsSearchQuery = z.output<typeof issueContentsSearchQuery>;

// ---------------------------------------------------------------------------------------
// Reader

const readerSectionFields = {
  id: uuid,
  issue_id: uuid,
  key: z.string(),
  position: z.int(),
  name: z.string().nullable(),
  description_html: z.string().nullable(),
  description_text: z.string().nullable(),
  updated_at: isoTimestamp,
};

export const readerSectionSchema = z
  .object({ ...readerSectionFields, meta: z.object({ locales: localesMeta }) })
  .meta({ id: 'ReaderSection' });

export const readerIssueSchema = z
  .object({
    id: uuid,
    issue_type_id: uuid,
    kind: z.string(),
    color: z.string(),
    pdf_file_key: z.string().nullable(),
    advertising_key: z.string().nullable(),
    locale: z.string().nullable(),
    name: z.string().nullable(),
    description_html: z.string().nullable(),
    description_text: z.string().nullable(),
    visual: issueVisualSchema.nullable(),
    sections: z.array(z.object(readerSectionFields)).describe('The issue’s sections in order, in the same language'),
    updated_at: isoTimestamp,
    meta: z.object({ locales: localesMeta }),
  })
  .meta({ id: 'ReaderIssue' });

export const issueSectionParams = z.object({ id: uuid, section_id: uuid });
export const readerQuery = localeQuery;
