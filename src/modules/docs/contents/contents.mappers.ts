import type { Access } from '../../../shared/access.js';
import { type BlockRow, type ImageUrl, type ResolvedImage, type StoredFields, toServedImage, toWireBlock, toWireVideo } from '../../../shared/blocks.js';
import { type ReaderView, pickLocale } from '../../../shared/http/reader.js';
import { iso, isoOrNull, stamped } from '../../../shared/time.js';
import type { ContentBlockRow, ContentLocaleRecord, ContentRecord, ContentTree } from './contents.repository.js';
import type { VISUAL_TYPES } from './contents.schemas.js';

type VisualType = (typeof VISUAL_TYPES)[number];

const toVisual = (l: ContentLocaleRecord & { visualImages: ResolvedImage[] | null }, urlOf: ImageUrl) => {
  const images = (l.visualImages ?? []).map((i) => toServedImage(i, urlOf));
  const type = l.visualType as VisualType;
  return {
    id: l.visualId,
    type,
    image: type === 'image' ? (images[0] ?? null) : null,
    video: type === 'video' ? toWireVideo(l.visualVideo as StoredFields['video']) : null,
    slideshow: type === 'slideshow' ? { id: l.visualId, images } : null,
  };
};

/** The mappers of contents, over the delivery url of images. */
export function contentMappers(urlOf: ImageUrl) {
  const toLocale = (l: ContentLocaleRecord) => ({
    id: l.id,
    locale: l.locale,
    location: l.location,
    title_html: l.titleHtml,
    title_text: l.titleText,
    subtitle_html: l.subtitleHtml,
    subtitle_text: l.subtitleText,
    lead_html: l.leadHtml,
    lead_text: l.leadText,
    seo: { title: l.seoTitle, description: l.seoDescription },
    visual: toVisual(l, urlOf),
    authors: l.authors.map((a) => ({ id: a.id, profile_id: a.profileId })),
    deleted_at: isoOrNull(l.deletedAt),
  });

  /** Backoffice view (spec 2.7). */
  const toBackofficeContent = (row: ContentRecord) => stamped({
    id: row.id,
    template_id: row.templateId,
    workspace_id: row.workspaceId,
    status_id: row.statusId,
    canonical_domain: row.canonicalDomain,
    canonical_url: row.canonicalUrl,
    is_archived: row.isArchived,
    show_publication_datetime: row.showPublicationDatetime,
    is_advertising: row.isAdvertising,
    is_sponsored: row.isSponsored,
    visibility: row.visibility,
    product_keys: row.productKeys,
    locales: row.locales.map(toLocale),
    content_categories: row.categories.map((c) => ({ id: c.id, category_id: c.categoryId })),
    published_at: isoOrNull(row.publishedAt),
    released_at: isoOrNull(row.releasedAt),
    released_at_timezone: row.releasedAtTimezone,
  }, row);

  /** Reader view: one language by the locale rule, flat. */
  const toReaderContent = (row: ContentRecord, view: Pick<ReaderView, 'locale' | 'fallback'>) => {
    const { entry, meta } = pickLocale(row.locales, view.locale, view.fallback);
    return {
      id: row.id,
      template_id: row.templateId,
      canonical_url: row.canonicalUrl,
      canonical_domain: row.canonicalDomain,
      show_publication_datetime: row.showPublicationDatetime,
      is_advertising: row.isAdvertising,
      is_sponsored: row.isSponsored,
      category_ids: row.categories.map((c) => c.categoryId),
      // Published contents have published_at; a preview of a draft may have none.
      published_at: isoOrNull(row.publishedAt),
      released_at: isoOrNull(row.releasedAt),
      released_at_timezone: row.releasedAtTimezone,
      updated_at: iso(row.updatedAt),
      locale: entry?.locale ?? null,
      location: entry?.location ?? null,
      title_html: entry?.titleHtml ?? null,
      title_text: entry?.titleText ?? null,
      subtitle_html: entry?.subtitleHtml ?? null,
      subtitle_text: entry?.subtitleText ?? null,
      lead_html: entry?.leadHtml ?? null,
      lead_text: entry?.leadText ?? null,
      seo: entry ? { title: entry.seoTitle, description: entry.seoDescription } : null,
      visual: entry ? toVisual(entry, urlOf) : null,
      author_ids: entry ? entry.authors.map((a) => a.profileId) : [],
      corrections: entry ? entry.corrections : [],
      meta: { locales: meta },
      access: { visibility: row.visibility },
    };
  };

  /** Reader by id: the chosen language's blocks beside it when access is granted; else its teaser (no blocks). */
  const toReaderContentWithBlocks = (row: ContentTree, view: Pick<ReaderView, 'locale' | 'fallback'>, access: Access) => {
    const content = toReaderContent(row, view);
    const entry = access.granted ? row.locales.find((l) => l.locale === content.locale) : undefined;
    // A related_contents block names only the contents readers may see (published, live). (No
    // object spreads on this path: on Node 20 one followed by more properties takes V8's slow path.)
    const blocks = (entry?.blocks ?? []).map((b) => {
      const wire = toWireBlock(b as BlockRow, urlOf);
      if (wire.kind === 'related_contents') wire.content_ids = b.publishedContentIds;
      return wire;
    });
    return Object.assign(content, { blocks, access });
  };

  // A block of the block routes: its locale after its position, as the schema declares (a spread is
  // fine here: one block an answer).
  const toContentBlock = (row: ContentBlockRow) => {
    const { id, kind, position, ...fields } = toWireBlock(row, urlOf);
    return { id, kind, position, locale: row.locale!, ...fields } as ReturnType<typeof toWireBlock> & { locale: string };
  };

  return { toBackofficeContent, toReaderContent, toReaderContentWithBlocks, toContentBlock };
}

export type ContentMappers = ReturnType<typeof contentMappers>;
