import { z } from 'zod';
import { accessSchema, productKeysSchema, visibilitySchema } from '../../../shared/access.js';
import { blockInput, blockSchema, imageRef, servedImageSchema, slideshowSchema, videoInput, videoSchema } from '../../../shared/blocks.js';
import { richHtml } from '../../../shared/html.js';
import { localeQuery, localesMeta } from '../../../shared/http/reader.js';
import { isoTimestamp, locale, pagingQuery, timestampInput, uuid } from '../../../shared/schemas.js';
import { searchSort, searchText } from '../../../shared/search.js';
import { timeZone } from '../../../shared/timezone.js';
import { metadataKey } from '../templates/templates.schemas.js';

export const VISUAL_TYPES = ['none', 'image', 'video', 'slideshow'] as const;

// ---------------------------------------------------------------------------------------
// Wire (spec 2.7)

export const visualSchema = z
  .object({
    id: uuid,
    type: z.enum(VISUAL_TYPES),
    image: servedImageSchema.nullable(),
    video: videoSchema.nullable(),
    slideshow: slideshowSchema.nullable(),
  })
  .meta({ id: 'Visual' });

const seoSchema = z.object({ title: z.string().nullable(), description: z.string().nullable() }).meta({ id: 'Seo' });

export const contentLocaleSchema = z
  .object({
    id: uuid,
    locale,
    location: z.string().nullable(),
    title_html: z.string(),
    title_text: z.string(),
    subtitle_html: z.string().nullable(),
    subtitle_text: z.string().nullable(),
    lead_html: z.string().nullable(),
    lead_text: z.string().nullable(),
    seo: seoSchema,
    visual: visualSchema,
    authors: z.array(z.object({ id: uuid, profile_id: uuid })),
    deleted_at: isoTimestamp.nullable(),
  })
  .meta({ id: 'ContentLocale' });

export const contentSchema = z
  .object({
    id: uuid,
    template_id: uuid,
    workspace_id: uuid,
    status_id: uuid,
    canonical_domain: z.string().nullable(),
    canonical_url: z.string().nullable(),
    is_archived: z.boolean(),
    show_publication_datetime: z.boolean(),
    is_advertising: z.boolean(),
    is_sponsored: z.boolean(),
    visibility: visibilitySchema,
    product_keys: z.array(z.string()).describe(productKeysSchema.description!),
    locales: z.array(contentLocaleSchema),
    content_categories: z.array(z.object({ id: uuid, category_id: uuid })),
    published_at: isoTimestamp.nullable(),
    released_at: isoTimestamp.nullable(),
    released_at_timezone: z.string().nullable(),
    inserted_at: isoTimestamp,
    updated_at: isoTimestamp,
    deleted_at: isoTimestamp.nullable(),
  })
  .meta({ id: 'Content' });

// ---------------------------------------------------------------------------------------
// Request bodies

const visualInput = z
  .strictObject({
    type: z.enum(VISUAL_TYPES),
    image: imageRef.optional(),
    video: videoInput.optional(),
    slideshow: z.strictObject({ images: z.array(imageRef).min(1).max(100) }).optional(),
  })
  .superRefine((v, ctx) => {
    for (const kind of ['image', 'video', 'slideshow'] as const) {
      if (v.type === kind && !v[kind]) ctx.addIssue({ code: 'custom', path: [kind], message: `is required when type is ${kind}` });
      if (v.type !== kind && v[kind]) ctx.addIssue({ code: 'custom', path: [kind], message: `is only allowed when type is ${kind}` });
    }
  })
  .meta({ id: 'VisualInput' });

export type VisualInput = z.output<typeof visualInput>;

const unique = (values: unknown[]) => new Set(values).size === values.length;

const localeInput = z.strictObject({
  locale,
  location: z.string().max(500).nullable().optional(),
  title_html: richHtml(5_000),
  subtitle_html: richHtml(5_000).nullable().optional(),
  lead_html: richHtml(20_000).nullable().optional(),
  seo: z.strictObject({ title: z.string().max(500).nullable().optional(), description: z.string().max(2000).nullable().optional() }).optional(),
  visual: visualInput.optional(),
  authors: z
    .array(z.strictObject({ profile_id: uuid.describe('A community profile (person) of the media') }))
    .max(50)
    .refine((a) => unique(a.map((e) => e.profile_id)), { message: 'each author may appear only once' })
    .optional(),
});

export type ContentLocaleInput = z.output<typeof localeInput>;

const localesInput = z
  .array(localeInput)
  .min(1)
  .max(50)
  .refine((entries) => unique(entries.map((e) => e.locale)), { message: 'each locale may appear only once' });

const categoriesInput = z
  .array(z.strictObject({ category_id: uuid }))
  .max(100)
  .refine((c) => unique(c.map((e) => e.category_id)), { message: 'each category may appear only once' });

const canonicalUrl = z.url({ protocol: /^https?$/ }).max(2000).nullable();

const editable = {
  status_id: uuid.describe('A status of the media (400 otherwise)'),
  canonical_url: canonicalUrl.optional(),
  is_archived: z.boolean().optional(),
  show_publication_datetime: z.boolean().optional(),
  is_advertising: z.boolean().optional(),
  is_sponsored: z.boolean().optional(),
  visibility: visibilitySchema.optional(),
  product_keys: productKeysSchema.optional(),
  published_at: timestampInput
    .nullable()
    .optional()
    .describe(
      'The content appears to readers at this instant when its status is a published one. Left out of a write that puts the content in a published status from another (a create, a status_id change, a workspace transfer) while it has none: the time of that write. An explicit null is kept',
    ),
  released_at: timestampInput.nullable().optional(),
  released_at_timezone: timeZone.nullable().optional(),
  content_categories: categoriesInput.optional(),
};

export const contentCreateBody = z
  .strictObject({
    template_id: uuid.describe('A template of the media (404 otherwise)'),
    workspace_id: uuid.describe('A workspace of the media (404 otherwise)'),
    ...editable,
    locales: localesInput,
  })
  .meta({ id: 'ContentCreate' });

export const contentUpdateBody = z
  .strictObject({
    ...editable,
    status_id: editable.status_id.optional(),
    locales: localesInput.optional().describe('The complete set of language entries: listed ones are created or updated, others are deleted'),
  })
  .meta({ id: 'ContentUpdate' });

export type ContentCreate = z.output<typeof contentCreateBody>;
export type ContentUpdate = z.output<typeof contentUpdateBody>;

export const templateSwitchBody = z
  .strictObject({
    template_id: uuid,
    drop_incompatible: z.boolean().default(false).describe('Remove the blocks and metadata the new template does not allow instead of refusing'),
  })
  .meta({ id: 'TemplateSwitch' });

export type TemplateSwitch = z.output<typeof templateSwitchBody>;

export const CONTENT_SORTS = ['inserted_at', 'updated_at', 'published_at'] as const;
export type ContentSort = (typeof CONTENT_SORTS)[number];

const booleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

export const contentsQuery = pagingQuery
  .extend({
    workspace_id: uuid.optional(),
    status_id: uuid.optional(),
    template_id: uuid.optional(),
    category_id: uuid.optional(),
    locale: locale.optional().describe('Only contents with a live entry in this language'),
    is_archived: booleanQuery.optional(),
    updated_since: timestampInput.optional().describe('Only contents updated at or after this instant'),
    sort: z.enum(CONTENT_SORTS).default('inserted_at').describe('Newest first by this timestamp (drafts last for published_at)'),
  })
  .meta({ id: 'ContentsQuery' });

export type ContentsQuery = z.output<typeof contentsQuery>;

// ---------------------------------------------------------------------------------------
// Metadata and blocks

export const metadataEntrySchema = z.object({ key: z.string(), value: z.string() }).meta({ id: 'MetadataEntry' });

export const metadataBody = z
  .strictObject({
    metadata: z
      .array(z.strictObject({ key: metadataKey, value: z.string().max(10_000) }))
      .max(100)
      .refine((m) => unique(m.map((e) => e.key)), { message: 'each key may appear only once' }),
  })
  .meta({ id: 'ContentMetadataReplace' });

export type MetadataBody = z.output<typeof metadataBody>;

export const contentBlockSchema = blockSchema('ContentBlock', { locale });

export const blockPosition = z.int().min(0).max(10_000).describe('0-based place among the blocks of its locale; others move to make room');

export const blockCreateBody = blockInput({ locale, position: blockPosition.optional() }).meta({ id: 'ContentBlockCreate' });
export const blockUpdateBody = z
  .union([z.strictObject({ position: blockPosition }), blockInput({ position: blockPosition.optional() })])
  .describe("Either `{position}` alone, or the block's kind with all of that kind's fields (and `position`)")
  .meta({ id: 'ContentBlockUpdate' });

export type BlockCreate = z.output<typeof blockCreateBody>;
export type BlockUpdate = z.output<typeof blockUpdateBody>;

export const blockParams = z.object({ id: uuid, block_id: uuid });
export const blocksQuery = z.object({ locale: locale.optional().describe('Only the blocks of this language') });

// ---------------------------------------------------------------------------------------
// Reader

/** A public correction note of a content, in the served language. */
export const correctionSchema = z
  .object({
    id: uuid,
    inserted_at: isoTimestamp,
    note_html: z.string(),
    note_text: z.string().describe('note_html as plain text, derived'),
  })
  .meta({ id: 'ContentCorrection' });

/** A correction as the Backoffice lists it: its language beside it. */
export const backofficeCorrectionSchema = correctionSchema.extend({ locale }).meta({ id: 'BackofficeContentCorrection' });

export const correctionCreateBody = z
  .object({
    locale: locale.describe('A language the content has an entry in'),
    note_html: richHtml(10_000).pipe(z.object({ html: z.string().min(1, 'must not be empty once sanitized'), text: z.string() })),
  })
  .strict()
  .meta({ id: 'ContentCorrectionCreate' });

export type CorrectionCreate = z.output<typeof correctionCreateBody>;

/** The Reader's content: one language, flat (CONVENTIONS, "Publishing"). */
const readerContentFields = {
  id: uuid,
  template_id: uuid,
  canonical_url: z.string().nullable(),
  canonical_domain: z.string().nullable(),
  show_publication_datetime: z.boolean(),
  is_advertising: z.boolean(),
  is_sponsored: z.boolean(),
  category_ids: z.array(uuid),
  published_at: isoTimestamp.nullable().describe('Set on every published content; null only in a preview of a content never published'),
  released_at: isoTimestamp.nullable(),
  released_at_timezone: z.string().nullable(),
  updated_at: isoTimestamp,
  locale: locale.nullable(),
  location: z.string().nullable(),
  title_html: z.string().nullable(),
  title_text: z.string().nullable(),
  subtitle_html: z.string().nullable(),
  subtitle_text: z.string().nullable(),
  lead_html: z.string().nullable(),
  lead_text: z.string().nullable(),
  seo: seoSchema.nullable(),
  visual: visualSchema.nullable(),
  author_ids: z.array(uuid),
  corrections: z.array(correctionSchema).describe("Public correction notes in the served language, newest first"),
  meta: z.object({ locales: localesMeta }),
};

export const readerContentSchema = z
  .object({
    ...readerContentFields,
    access: z.object({ visibility: visibilitySchema }).describe('Who may read the body; a list never carries it (open the content by id)'),
  })
  .meta({ id: 'ReaderContent' });
export const readerContentWithBlocksSchema = z
  .object({
    ...readerContentFields,
    access: accessSchema,
    blocks: z.array(blockSchema('ReaderContentBlock', {})).describe('Empty when access is not granted: the content is then its teaser'),
  })
  .meta({ id: 'ReaderContentWithBlocks' });

export const readerTemplateSchema = z
  .object({ id: uuid, content_type_id: uuid, key: z.string(), name: z.string(), updated_at: isoTimestamp })
  .meta({ id: 'ReaderTemplate' });

const idList = (what: string) =>
  z
    .union([uuid, z.array(uuid)])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .pipe(z.array(uuid).max(50))
    .optional()
    .describe(`Only contents with one of these ${what} (repeat the parameter)`);

export const readerContentsQuery = pagingQuery
  .extend(localeQuery.shape)
  .extend({ 'category_ids[]': idList('categories'), 'template_ids[]': idList('templates') })
  .meta({ id: 'ReaderContentsQuery' });

export const readerSearchQuery = readerContentsQuery.extend({ q: searchText, sort: searchSort }).meta({ id: 'ReaderContentsSearchQuery' });

export type ReaderContentsQuery = z.output<typeof readerContentsQuery>;
export type ReaderSearchQuery = z.output<typeof readerSearchQuery>;

export const questionParams = z.object({ id: uuid, block_id: uuid });
export const voteBody = z.strictObject({ choice_id: uuid }).meta({ id: 'QuestionVote' });

export const questionResultsSchema = z
  .object({
    question_id: uuid.describe('The question block'),
    title: z.string(),
    total: z.int(),
    choices: z.array(z.object({ id: uuid, label: z.string(), votes: z.int() })),
  })
  .meta({ id: 'QuestionResults' });

