import type { SQL } from 'drizzle-orm';
import { type PgColumn, integer, jsonb, text, uuid as uuidColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { deletedAt, idColumn, newId, timestamps } from '../db/columns.js';
import type { Computed } from './aggregate.js';
import { errors } from './errors.js';
import { richHtml } from './html.js';
import { jsonValue, uuid } from './schemas.js';

/**
 * The one block union (CONVENTIONS, "Ordered children, blocks and metadata"): content blocks,
 * community description blocks and media blocks are all made of these kinds. A module
 * declares a blocks table with `blockColumns()` beside its parent column, a part with
 * `BLOCK_PART_COLUMNS` and `blockComputed()`, takes bodies with `blockInput()`, stores them
 * with `storeBlock()` and answers them with `toWireBlock()` under `blockSchema()`.
 */

export const BLOCK_KINDS = [
  'richtext',
  'html',
  'data',
  'image',
  'slideshow',
  'video',
  'quote',
  'question',
  'related_contents',
  'profiles',
] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number];

/** The columns of every blocks table, spread beside the owner's parent column. */
export const blockColumns = () => ({
  id: idColumn(),
  /** The language entry the block belongs to (image credits and captions follow it). */
  locale: text('locale'),
  kind: text('kind').$type<BlockKind>().notNull(),
  position: integer('position').notNull(),
  /** The kind's fields as stored: sanitized HTML with its derived text, choices with their ids. */
  fields: jsonb('fields').$type<StoredFields>().notNull(),
  /** The asset images an image or slideshow block shows, in order; resolved on every read. */
  assetImageIds: uuidColumn('asset_image_ids').array(),
  /** The block's plain text, for search documents. */
  searchText: text('search_text').notNull().default(''),
  ...timestamps(),
  deletedAt: deletedAt(),
});

/** The columns a block part serves (with `blockComputed`'s `images`). */
export const BLOCK_PART_COLUMNS = ['id', 'locale', 'kind', 'position', 'fields'] as const;

/** An asset image as blocks and visuals serve it, read in the record's own statement. */
export interface ResolvedImage {
  id: string;
  file_key: string;
  gravity: string;
  credit: string | null;
  caption_html: string | null;
  caption_text: string | null;
}

/** SQL answering the live images among `ids` (a uuid[] expression) as JSON, in order, captioned in `locale`. */
export type ImagesResolver = (ids: SQL, locale: SQL) => SQL<ResolvedImage[]>;

/** The computed fields of a block part: its images, resolved by the assets owner's SQL. */
export const blockComputed = (table: { assetImageIds: PgColumn; locale: PgColumn }, resolve: ImagesResolver) => ({
  images: ((col) => resolve(col(table.assetImageIds), col(table.locale))) as Computed<ResolvedImage[]>,
});

// ---------------------------------------------------------------------------------------
// Request bodies

const unique = (values: unknown[]) => new Set(values).size === values.length;
export const imageRef = z.strictObject({ asset_image_id: uuid.describe('An asset image of the media') });
const choiceInput = z.strictObject({
  id: uuid.optional().describe('Keep an existing choice (and its votes) by sending its id back'),
  label: z.string().trim().min(1).max(500),
});
export const videoInput = z.strictObject({
  video_id: uuid.optional().describe("The video's id in the provider's or our catalogue"),
  url: z.url({ protocol: /^https?$/ }).max(2000),
  provider: z.string().trim().min(1).max(100),
  credit: z.string().max(500).nullable().optional(),
  caption_html: richHtml(10_000).nullable().optional(),
  is_monetized: z.boolean().optional(),
  is_tracking_enabled: z.boolean().optional(),
});
const ids = (what: string) =>
  z
    .array(uuid)
    .min(1)
    .max(100)
    .refine(unique, { message: `each ${what} may appear only once` });

/** Each kind's own fields, as a client sends them. */
const KIND_FIELDS = {
  richtext: { content_html: richHtml() },
  html: { content_html: richHtml() },
  data: { data: z.record(z.string(), jsonValue).describe('Any JSON object') },
  image: { image: imageRef },
  slideshow: { slideshow: z.strictObject({ images: z.array(imageRef).min(1).max(100) }) },
  video: { video: videoInput },
  quote: { content_html: richHtml(20_000), author: z.string().trim().max(500).nullable().optional() },
  question: {
    title: z.string().trim().min(1).max(500),
    choices: z
      .array(choiceInput)
      .min(2)
      .max(20)
      .refine((c) => unique(c.filter((e) => e.id).map((e) => e.id)), { message: 'each choice id may appear only once' }),
  },
  related_contents: { content_ids: ids('content id').describe('Contents of the same media') },
  profiles: { profile_ids: ids('profile id').describe('Community profiles of the same media') },
} satisfies Record<BlockKind, z.ZodRawShape>;

/**
 * A block request body: `{kind, …that kind's fields}` plus the owner's `extra` fields (a
 * content block's `locale` and `position`). Unknown fields are refused.
 */
export function blockInput<E extends z.ZodRawShape>(extra: E) {
  const variant = <K extends BlockKind>(kind: K) => z.strictObject({ kind: z.literal(kind), ...extra, ...KIND_FIELDS[kind] });
  return z.discriminatedUnion('kind', [
    variant('richtext'),
    variant('html'),
    variant('data'),
    variant('image'),
    variant('slideshow'),
    variant('video'),
    variant('quote'),
    variant('question'),
    variant('related_contents'),
    variant('profiles'),
  ]);
}

export type BlockInput = z.output<ReturnType<typeof blockInput<Record<never, never>>>>;

// ---------------------------------------------------------------------------------------
// Storage

interface StoredVideo {
  id: string;
  video_id: string | null;
  url: string;
  provider: string;
  credit: string | null;
  caption_html: string | null;
  caption_text: string | null;
  is_monetized: boolean;
  is_tracking_enabled: boolean;
}

/** The `fields` column: each kind's fields after sanitizing, with derived texts and ids. */
export type StoredFields = {
  content_html?: string;
  content_text?: string;
  author?: string | null;
  data?: Record<string, unknown>;
  image?: { asset_image_id: string };
  slideshow?: { images: Array<{ asset_image_id: string }> };
  video?: StoredVideo;
  title?: string;
  choices?: Array<{ id: string; label: string }>;
  content_ids?: string[];
  profile_ids?: string[];
};

export interface StoredBlock {
  kind: BlockKind;
  fields: StoredFields;
  assetImageIds: string[] | null;
  searchText: string;
}

/** The records a block points at, which its owner checks exist in the same media. */
export interface BlockReferences {
  assetImageIds: string[];
  contentIds: string[];
  profileIds: string[];
}

type KindInput = { [K in BlockKind]: { kind: K } & z.output<z.ZodObject<(typeof KIND_FIELDS)[K]>> }[BlockKind];

/**
 * The stored form of a block body. A question keeps the ids of the choices sent back with
 * theirs (`previous`: the block as stored before) and gives new choices new ids.
 */
export function storeBlock(input: KindInput, previous?: StoredFields): StoredBlock {
  const plain = (fields: StoredFields, searchText: string, assetImageIds: string[] | null = null): StoredBlock => ({
    kind: input.kind,
    fields,
    assetImageIds,
    searchText,
  });
  switch (input.kind) {
    case 'richtext':
    case 'html':
      return plain({ content_html: input.content_html.html, content_text: input.content_html.text }, input.content_html.text);
    case 'quote':
      return plain(
        { content_html: input.content_html.html, content_text: input.content_html.text, author: input.author ?? null },
        [input.content_html.text, input.author ?? ''].join('\n').trim(),
      );
    case 'data':
      return plain({ data: input.data }, '');
    case 'image':
      return plain({ image: { asset_image_id: input.image.asset_image_id } }, '', [input.image.asset_image_id]);
    case 'slideshow': {
      const images = input.slideshow.images.map((i) => ({ asset_image_id: i.asset_image_id }));
      return plain({ slideshow: { images } }, '', images.map((i) => i.asset_image_id));
    }
    case 'video': {
      const v = input.video;
      const video: StoredVideo = {
        id: previous?.video?.id ?? newId(),
        video_id: v.video_id ?? null,
        url: v.url,
        provider: v.provider,
        credit: v.credit ?? null,
        caption_html: v.caption_html?.html ?? null,
        caption_text: v.caption_html?.text ?? null,
        is_monetized: v.is_monetized ?? false,
        is_tracking_enabled: v.is_tracking_enabled ?? false,
      };
      return plain({ video }, [video.caption_text ?? '', video.credit ?? ''].join('\n').trim());
    }
    case 'question': {
      const known = new Set((previous?.choices ?? []).map((c) => c.id));
      const unknownAt = input.choices.findIndex((c) => c.id !== undefined && !known.has(c.id));
      if (unknownAt >= 0) {
        throw errors.validation('a choice id is not a choice of this question', [
          { path: `choices.${unknownAt}.id`, message: 'is not a choice of this question; leave id out to add one' },
        ]);
      }
      const choices = input.choices.map((c) => ({ id: c.id ?? newId(), label: c.label }));
      return plain({ title: input.title, choices }, [input.title, ...choices.map((c) => c.label)].join('\n'));
    }
    case 'related_contents':
      return plain({ content_ids: input.content_ids }, '');
    case 'profiles':
      return plain({ profile_ids: input.profile_ids }, '');
  }
}

/** What a stored block points at. */
export const blockReferences = (block: Pick<StoredBlock, 'fields' | 'assetImageIds'>): BlockReferences => ({
  assetImageIds: block.assetImageIds ?? [],
  contentIds: block.fields.content_ids ?? [],
  profileIds: block.fields.profile_ids ?? [],
});

// ---------------------------------------------------------------------------------------
// Wire

/** An asset image as served in blocks and visuals: the record's id and key, its delivery url and captions. */
export const servedImageSchema = z
  .object({
    id: uuid.describe('The asset image'),
    asset_image_id: uuid,
    file_key: z.string(),
    url: z.string().describe('GET /assets/{file_key}'),
    credit: z.string().nullable(),
    caption_html: z.string().nullable(),
    caption_text: z.string().nullable(),
    gravity: z.string(),
  })
  .meta({ id: 'ServedImage' });

export const videoSchema = z
  .object({
    id: uuid,
    video_id: uuid.nullable(),
    url: z.string(),
    provider: z.string(),
    credit: z.string().nullable(),
    caption_html: z.string().nullable(),
    caption_text: z.string().nullable(),
    is_monetized: z.boolean(),
    is_tracking_enabled: z.boolean(),
  })
  .meta({ id: 'Video' });

export const slideshowSchema = z.object({ id: uuid, images: z.array(servedImageSchema) }).meta({ id: 'Slideshow' });

const WIRE_FIELDS = {
  richtext: { content_html: z.string(), content_text: z.string() },
  html: { content_html: z.string(), content_text: z.string() },
  data: { data: z.record(z.string(), z.unknown()) },
  image: { image: servedImageSchema.nullable().describe('null when the asset image has been deleted') },
  slideshow: { slideshow: slideshowSchema },
  video: { video: videoSchema },
  quote: { content_html: z.string(), content_text: z.string(), author: z.string().nullable() },
  question: { title: z.string(), choices: z.array(z.object({ id: uuid, label: z.string() })) },
  related_contents: { content_ids: z.array(uuid) },
  profiles: { profile_ids: z.array(uuid) },
} satisfies Record<BlockKind, z.ZodRawShape>;

/** The wire union of blocks, `{id, kind, position, …extra, …kind fields}`, named `id` in OpenAPI. */
export function blockSchema<E extends z.ZodRawShape>(id: string, extra: E) {
  const variant = <K extends BlockKind>(kind: K) =>
    z.object({ id: uuid, kind: z.literal(kind), position: z.int().min(0), ...extra, ...WIRE_FIELDS[kind] });
  return z
    .discriminatedUnion('kind', [
      variant('richtext'),
      variant('html'),
      variant('data'),
      variant('image'),
      variant('slideshow'),
      variant('video'),
      variant('quote'),
      variant('question'),
      variant('related_contents'),
      variant('profiles'),
    ])
    .meta({ id });
}

/** A block as its part reads it. */
export interface BlockRow {
  id: string;
  kind: string;
  position: number;
  fields: StoredFields;
  images: ResolvedImage[] | null;
}

/** Delivery url of an image by its file key. */
export type ImageUrl = (fileKey: string) => string;

export const toServedImage = (image: ResolvedImage, urlOf: ImageUrl) => ({
  id: image.id,
  asset_image_id: image.id,
  file_key: image.file_key,
  url: urlOf(image.file_key),
  credit: image.credit,
  caption_html: image.caption_html,
  caption_text: image.caption_text,
  gravity: image.gravity,
});

/** A stored video as the wire declares it (`videoSchema`'s order: jsonb keeps keys shortest first). */
export const toWireVideo = (v: StoredVideo | null | undefined) =>
  v
    ? {
        id: v.id,
        video_id: v.video_id,
        url: v.url,
        provider: v.provider,
        credit: v.credit,
        caption_html: v.caption_html,
        caption_text: v.caption_text,
        is_monetized: v.is_monetized,
        is_tracking_enabled: v.is_tracking_enabled,
      }
    : null;

/**
 * A block on the wire: its kind's fields, images resolved to their served form, in the order the
 * schema declares them (`id, kind, position`, the kind's fields; the contents' `toContentBlock` puts a
 * content block's `locale` after `position`).
 */
export function toWireBlock(row: BlockRow, urlOf: ImageUrl) {
  // Each shape written out, not spread from a common base: on Node 20 an object spread followed by
  // more properties takes V8's slow path, which made mapping a content's blocks cost more than
  // reading them; a literal does not.
  const { id, position } = row;
  const f = row.fields;
  switch (row.kind as BlockKind) {
    case 'richtext':
    case 'html':
      return { id, kind: row.kind as 'richtext', position, content_html: f.content_html!, content_text: f.content_text! };
    case 'quote':
      return { id, kind: 'quote' as const, position, content_html: f.content_html!, content_text: f.content_text!, author: f.author ?? null };
    case 'data':
      return { id, kind: 'data' as const, position, data: f.data! };
    case 'image':
      return { id, kind: 'image' as const, position, image: row.images?.[0] ? toServedImage(row.images[0], urlOf) : null };
    case 'slideshow':
      return { id, kind: 'slideshow' as const, position, slideshow: { id, images: (row.images ?? []).map((i) => toServedImage(i, urlOf)) } };
    case 'video':
      return { id, kind: 'video' as const, position, video: toWireVideo(f.video)! };
    case 'question':
      return { id, kind: 'question' as const, position, title: f.title!, choices: f.choices! };
    case 'related_contents':
      return { id, kind: 'related_contents' as const, position, content_ids: f.content_ids! };
    case 'profiles':
      return { id, kind: 'profiles' as const, position, profile_ids: f.profile_ids! };
  }
}
